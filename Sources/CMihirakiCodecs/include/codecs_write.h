// Mihiraki's codec shim: Writing spreads: PNG, JPEG, WebP, AVIF. Part of CMihirakiCodecs.h.
#ifndef CMIHIRAKI_CODECS_WRITE_H
#define CMIHIRAKI_CODECS_WRITE_H

#include "CMihirakiCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Encoding

/// How the PNG writer filters rows. The first five are PNG's own filter
/// types, written as each row's first byte; the last two choose among them.
typedef enum mh_png_filter {
    MH_PNG_FILTER_NONE = 0,
    MH_PNG_FILTER_SUB = 1,
    MH_PNG_FILTER_UP = 2,
    MH_PNG_FILTER_AVERAGE = 3,
    MH_PNG_FILTER_PAETH = 4,
    MH_PNG_FILTER_ADAPTIVE = 5,  ///< per row: the filter with the smallest sum of residuals
    MH_PNG_FILTER_SAMPLED = 6,   ///< per image: the one filter that deflates a sample of rows smallest
} mh_png_filter;

/// Encodes 8-bit samples as PNG with Mihiraki's own writer: rows filtered
/// with `filter`, deflated by libdeflate at `level` (0–12).
int mh_png_encode_deflate(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                          int level, mh_png_filter filter, mh_buffer *out, mh_error *error);

/// Encodes 8-bit samples as PNG without an LZ77 search (`--compression
/// fast`): per-row filters chosen with SSE2, one deflate block with Huffman
/// codes built for the image and runs of zero residuals as distance-1
/// matches. `reference` nonzero takes the scalar path, which gives the same bytes.
int mh_png_encode_fast(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                       int reference, mh_buffer *out, mh_error *error);

/// Encodes 8-bit gray (1 channel) or RGB (3) as baseline JPEG at `quality`
/// (1–100): optimised Huffman tables, 4:2:0 chroma, integer DCT.
int mh_jpeg_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                   mh_buffer *out, mh_error *error);
/// Encodes gray (1 channel, lossy only), RGB (3) or straight RGBA (4) as WebP, lossy at `quality`
/// or lossless (`quality` is then the effort), single-threaded.
int mh_webp_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                   int lossless, mh_buffer *out, mh_error *error);
/// Encodes gray (1), RGB (3) or straight RGBA (4) as AVIF, lossy at `quality`
/// or lossless, single-threaded, tagged sRGB. `mh_avif_unavailable` says
/// why AVIF cannot be written (libavif not installed, or built without an
/// AV1 encoder), or returns NULL when it can.
const char *mh_avif_unavailable(void);
int mh_avif_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                   int lossless, mh_buffer *out, mh_error *error);

#ifdef __cplusplus
}
#endif
#endif
