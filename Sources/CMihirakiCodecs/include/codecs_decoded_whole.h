// Mihiraki's codec shim: Reading WebP, GIF, AVIF and JPEG XL pages, decoded whole. Part of CMihirakiCodecs.h.
#ifndef CMIHIRAKI_CODECS_DECODED_WHOLE_H
#define CMIHIRAKI_CODECS_DECODED_WHOLE_H

#include "CMihirakiCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: WebP, GIF, AVIF and JPEG XL reading
//
// These formats are decoded whole (into 8-bit RGB(A), or gray), only when the
// caller has checked the header's size against its pixel limit.

typedef struct mh_webp_info {
    uint32_t width;
    uint32_t height;
    int has_alpha;   ///< decoded as RGBA when set, RGB otherwise
    int animated;    ///< decoded as RGBA: the first frame on the canvas
    int lossy;       ///< VP8 (lossy) rather than VP8L: decoded from YUV
    const uint8_t *icc;  ///< the ICCP chunk, or NULL; points into `data`
    size_t icc_size;
} mh_webp_info;

/// Reads a WebP header (simple or extended, animated or not).
int mh_webp_probe(const void *data, size_t size, mh_webp_info *info, mh_error *error);
/// Decodes into `pixels` (height rows of `stride` bytes, RGBA or RGB as `info` says).
int mh_webp_decode(const void *data, size_t size, const mh_webp_info *info, void *pixels, size_t stride,
                   mh_error *error);

/// A lossy WebP decoded as YUV and found gray: every chroma sample is 128,
/// as in every gray picture libwebp encodes.
typedef struct mh_webp_gray mh_webp_gray;

/// Decodes a lossy, opaque, still WebP as YUV with libwebp's incremental
/// decoder, a piece of the file at a time, watching the chroma as rows
/// arrive. Returns a reader of its gray rows when the chroma is neutral
/// throughout; NULL with `*colour` set as soon as one chroma sample is not
/// (decode the page with `mh_webp_decode`); NULL with `error` set when the
/// data is damaged or cut off. Holds the luma plane (1.5 bytes a pixel with
/// chroma) instead of RGB (3).
mh_webp_gray *mh_webp_gray_open(const void *data, size_t size, int *colour, mh_error *error);
/// Row `y` as gray: each luma sample converted as libwebp converts it to red
/// and blue with neutral chroma (green can differ from them by one level).
void mh_webp_gray_row(const mh_webp_gray *reader, uint32_t y, uint8_t *out);
void mh_webp_gray_close(mh_webp_gray *reader);

typedef struct mh_gif_reader mh_gif_reader;

typedef struct mh_gif_info {
    uint32_t width;   ///< of the logical screen
    uint32_t height;
} mh_gif_info;

/// Reads the GIF header and logical screen. `data` must stay valid until `mh_gif_close`.
mh_gif_reader *mh_gif_open(const void *data, size_t size, mh_gif_info *info, mh_error *error);
/// Decodes the first frame onto the logical screen as RGBA (transparent outside it).
int mh_gif_read(mh_gif_reader *reader, void *pixels, size_t stride, mh_error *error);
void mh_gif_close(mh_gif_reader *reader);

typedef struct mh_avif_reader mh_avif_reader;

typedef struct mh_avif_info {
    uint32_t width;    ///< as stored, before irot/imir
    uint32_t height;
    int depth;         ///< 8, 10 or 12
    int monochrome;    ///< 4:0:0
    int has_alpha;
    int rotation;      ///< irot: quarter turns anticlockwise, 0–3
    int mirror;        ///< imir: -1 none, 0 top and bottom exchanged, 1 left and right
    const uint8_t *icc;  ///< the colr ICC profile, or NULL; valid until mh_avif_close
    size_t icc_size;
} mh_avif_info;

/// Parses the AVIF container (no pixels decoded). `data` must stay valid
/// until `mh_avif_close`.
mh_avif_reader *mh_avif_open(const void *data, size_t size, mh_avif_info *info, mh_error *error);
/// Decodes the first image as 8-bit RGB (`channels` 3) or RGBA (4).
int mh_avif_read(mh_avif_reader *reader, void *pixels, size_t stride, int channels, mh_error *error);
void mh_avif_close(mh_avif_reader *reader);

typedef struct mh_jxl_reader mh_jxl_reader;

typedef struct mh_jxl_info {
    uint32_t width;    ///< upright: libjxl applies the orientation
    uint32_t height;
    int gray;
    int has_alpha;
    const uint8_t *icc;  ///< the pixels' profile when it is not sRGB, or NULL; valid until mh_jxl_close
    size_t icc_size;
} mh_jxl_info;

/// Reads the JPEG XL basic info. `data` must stay valid until `mh_jxl_close`.
mh_jxl_reader *mh_jxl_open(const void *data, size_t size, mh_jxl_info *info, mh_error *error);
/// Decodes the first frame, upright, into `pixels` (`size` bytes, rows packed)
/// with `channels` 8-bit samples per pixel (1 gray, 2 gray+alpha, 3, 4).
int mh_jxl_read(mh_jxl_reader *reader, void *pixels, size_t size, int channels, mh_error *error);
void mh_jxl_close(mh_jxl_reader *reader);

#ifdef __cplusplus
}
#endif
#endif
