// Mihiraki's codec shim: Reading PNG and JPEG pages, row by row. Part of CMihirakiCodecs.h.
#ifndef CMIHIRAKI_CODECS_PNG_JPEG_READ_H
#define CMIHIRAKI_CODECS_PNG_JPEG_READ_H

#include "CMihirakiCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/// 1/256 levels, from the exact inverse DCT in fixed point: the sum is not
/// the sum of samples clamped to 0–255, but it is held to the range such a
/// sum has (0 to `depth` × 255 levels), and so is every value written here,
/// whatever the file's coefficients and quantization say. Rows read
/// afterwards are the same pixels as without this call.
/// Returns MH_ERR_UNSUPPORTED, having changed nothing, for pages whose luma
/// is not the first component at full resolution (CMYK, RGB-coded, 12-bit,
/// subsampled luma) or narrower than `depth`, and after a reduction to 1/8
/// (libjpeg then keeps only the DC coefficients).
/// With `chroma` (4 × height values) and a YCbCr page subsampled by whole
/// ratios, also Cb and Cr over the same columns, in the planes Cb left, Cb
/// right, Cr left, Cr right: each subsampled sample counted once for each
/// of those columns it stands for, and repeated over its rows;
/// `*has_chroma` says whether they were written.
/// With `strips` (2 × height × strip_depth values, strip_depth at most half
/// the width), also luma's `strip_depth` columns next to each edge one by
/// one, left edge then right, row by row, column 0 at the edge, in 1/256
/// levels, each clamped to 0–255 as a decoded sample is.
int mh_jpeg_edges(mh_jpeg_reader *reader, uint32_t depth, int32_t *left, int32_t *right, int32_t *chroma,
                  int *has_chroma, uint32_t strip_depth, int32_t *strips, mh_error *error);
void mh_jpeg_close(mh_jpeg_reader *reader);

#ifdef __cplusplus
}
#endif
#endif
