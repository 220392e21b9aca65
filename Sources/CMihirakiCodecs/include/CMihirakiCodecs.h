// The C face of Mihiraki's codecs.
//
// Every libpng and libjpeg call happens behind these functions. Both libraries
// report fatal errors by longjmp (libjpeg's default even calls exit()), so each
// function here owns its own setjmp and returns a plain status instead: no
// jump ever crosses a Swift frame, and no Swift code runs inside a jump region.
// Only plain C types cross the boundary, so Swift never imports png.h or
// jpeglib.h.
#ifndef CMIHIRAKI_CODECS_H
#define CMIHIRAKI_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes shared by every function below.
enum {
    MH_OK = 0,
    MH_ERR_CORRUPT = 1,      ///< the data is damaged or truncated
    MH_ERR_UNSUPPORTED = 2,  ///< well-formed, but a feature Mihiraki does not read
    MH_ERR_NOMEM = 3,        ///< an allocation failed
    MH_ERR_USAGE = 4,        ///< the caller passed something invalid
};

/// Why a call failed: a status code and a one-line, human-readable reason.
typedef struct mh_error {
    int code;
    char message[240];
} mh_error;

/// Bytes produced by an encoder; release with `mh_buffer_free`.
typedef struct mh_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
} mh_buffer;

void mh_buffer_free(mh_buffer *buffer);

// MARK: PNG reading

typedef struct mh_png_reader mh_png_reader;

/// What a PNG holds once it is expanded to 8 bits per sample: palette becomes
/// RGB, tRNS becomes alpha, 16-bit samples are scaled with rounding.
typedef struct mh_png_info {
    uint32_t width;
    uint32_t height;
    int channels;      ///< 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
    int interlaced;
    const uint8_t *icc;  ///< the iCCP profile, or NULL; valid until mh_png_close
    size_t icc_size;
} mh_png_info;

/// Reads the header. `data` must stay valid until `mh_png_close`.
/// Returns NULL and fills `error` on failure; no pixel memory is allocated here.
mh_png_reader *mh_png_open(const void *data, size_t size, mh_png_info *info, mh_error *error);
/// Decodes every row into `pixels` (height rows of `stride` bytes).
int mh_png_read(mh_png_reader *reader, void *pixels, size_t stride, mh_error *error);
/// Decodes the next row into `row` (non-interlaced images only; check
/// `info.interlaced`). After the last row the end of the file is checked too.
int mh_png_read_row(mh_png_reader *reader, void *row, mh_error *error);
void mh_png_close(mh_png_reader *reader);

/// Whether `data` is a plain PNG (8-bit, not interlaced, gray, gray+alpha,
/// RGB or RGBA, no tRNS) that `mh_png_plain_decode` reads; its size if so,
/// and whether it embeds an ICC profile (which this path does not apply).
/// Returns MH_OK or MH_ERR_UNSUPPORTED.
int mh_png_plain_probe(const void *data, size_t size, uint32_t *width, uint32_t *height, int *channels,
                       int *has_profile);
/// Decodes a plain PNG with libdeflate. Returns MH_ERR_UNSUPPORTED for any
/// file it declines (including damaged ones): decode those with libpng.
int mh_png_plain_decode(const void *data, size_t size, void *pixels, size_t stride);

// MARK: JPEG reading

typedef struct mh_jpeg_reader mh_jpeg_reader;

enum {
    MH_JPEG_GRAY = 1,
    MH_JPEG_RGB = 3,
    MH_JPEG_CMYK = 4,  ///< CMYK or YCCK in the file; delivered as CMYK samples
};

typedef struct mh_jpeg_info {
    uint32_t width;
    uint32_t height;
    int channels;            ///< 1, 3 or 4 (CMYK)
    int color_model;         ///< one of MH_JPEG_*
    int adobe_marker;        ///< non-zero when an Adobe APP14 marker was seen (inverted CMYK)
    const uint8_t *exif;     ///< payload of the first APP1 "Exif\0\0" segment, or NULL
    size_t exif_size;
    const uint8_t *icc;      ///< the APP2 ICC profile, or NULL; valid until mh_jpeg_close
    size_t icc_size;
} mh_jpeg_info;

/// Reads the header, and the markers before the first scan. `data` must stay
/// valid until `mh_jpeg_close`.
mh_jpeg_reader *mh_jpeg_open(const void *data, size_t size, mh_jpeg_info *info, mh_error *error);
/// Decodes the next row into `row`, so a page can be resampled while it is
/// read without ever being whole in memory. After the last row the end of
/// the file is checked too. Corrupt-data warnings count as errors (a
/// truncated page must not come out silently grey), except the harmless ones
/// listed in the implementation.
int mh_jpeg_read_row(mh_jpeg_reader *reader, void *row, mh_error *error);
/// Shrink-on-load: before the first row, asks libjpeg's DCT scaling for the
/// smallest of 1/8, 1/4, 1/2 and 1 that is still at least `min_width` ×
/// `min_height`, and reports the size the rows will then have.
int mh_jpeg_reduce(mh_jpeg_reader *reader, uint32_t min_width, uint32_t min_height, uint32_t *width,
                   uint32_t *height, mh_error *error);
/// Pairing's edges from the coefficients, so a page is entropy-decoded once
/// whether or not its rows are read afterwards. Before the first row (and
/// after any `mh_jpeg_reduce`): keeps the whole file's coefficients, and for
/// each stored row `y` writes into `left[y]` and `right[y]` the sum of the
/// luma of the `depth` columns next to each side edge at full resolution, in
/// 1/256 levels, from the exact inverse DCT in fixed point (not clamped to
/// 0–255). Rows read afterwards are the same pixels as without this call.
/// Returns MH_ERR_UNSUPPORTED, having changed nothing, for pages whose luma
/// is not the first component at full resolution (CMYK, RGB-coded, 12-bit,
/// subsampled luma) or narrower than `depth`.
int mh_jpeg_edges(mh_jpeg_reader *reader, uint32_t depth, int32_t *left, int32_t *right, mh_error *error);
void mh_jpeg_close(mh_jpeg_reader *reader);

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

// MARK: Archives read in sequence (libarchive)

typedef struct mh_archive mh_archive;

typedef struct mh_archive_entry {
    const char *name;    ///< valid until the next call on the archive
    int64_t size;        ///< -1 when the header does not say
    int is_file;
    int encrypted;
    const char *format;  ///< what libarchive recognised, such as "7-Zip" or "RAR5"
} mh_archive_entry;

/// Opens an archive file; its kind comes from its bytes.
mh_archive *mh_archive_open(const char *path, mh_error *error);
/// Moves to the next entry: 1, or 0 at the end, or -1 with `error` filled.
int mh_archive_next(mh_archive *archive, mh_archive_entry *entry, mh_error *error);
/// Reads the current entry's data: bytes read, 0 at its end, -1 on error.
long mh_archive_read(mh_archive *archive, void *buffer, size_t size, mh_error *error);
void mh_archive_close(mh_archive *archive);

// MARK: Colour (lcms2)

typedef struct mh_color_transform mh_color_transform;

/// A transform from an embedded ICC profile to sRGB (RGB profiles, 3 or 4
/// channels; alpha copied) or to gray with the sRGB curve (gray profiles, 1 or
/// 2 channels), relative colorimetric, usable from several threads at once.
/// Returns NULL with MH_OK in `error` when no transform is needed (a profile
/// that describes itself as sRGB), with MH_ERR_UNSUPPORTED when the profile
/// does not fit the pixels, MH_ERR_CORRUPT when it cannot be read.
mh_color_transform *mh_color_transform_new(const void *icc, size_t size, int channels, mh_error *error);
/// Converts `count` pixels in place.
void mh_color_transform_apply(mh_color_transform *transform, void *pixels, size_t count);
/// A transform from a CMYK profile's 4 samples (`inverted`: Adobe's inverted
/// CMYK) to sRGB's 3, relative colorimetric; NULL with the reason in `error`
/// when the profile is not CMYK or cannot be used.
mh_color_transform *mh_color_transform_new_cmyk(const void *icc, size_t size, int inverted, mh_error *error);
/// Converts `count` pixels from `source` into `target` (CMYK into RGB).
void mh_color_transform_convert(mh_color_transform *transform, const void *source, void *target, size_t count);

// MARK: Checksums

/// CRC-32 (ISO-HDLC, as ZIP and PNG use) of `size` bytes, continuing `crc`
/// (0 to start).
uint32_t mh_crc32(uint32_t crc, const void *data, size_t size);

/// Inflates a raw deflate stream (a ZIP entry's data) into `dst`, at most
/// `dst_size` bytes; `*produced` gets how many. 0 when the stream is whole and
/// fits, 1 when it is damaged or longer, -1 when out of memory. Bounded: it
/// never reads past `src_size` nor writes past `dst_size`.
int mh_inflate_raw(const void *src, size_t src_size, void *dst, size_t dst_size, size_t *produced);

#ifdef __cplusplus
}
#endif

#endif
