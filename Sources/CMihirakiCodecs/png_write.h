// What Mihiraki's two PNG writers share: the scalar row filters and the
// chunk framing. Internal to CMihirakiCodecs.
#ifndef CMIHIRAKI_PNG_WRITE_H
#define CMIHIRAKI_PNG_WRITE_H

#include "shim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/// Paeth's predictor: a (left) if |p-a| is least for p = a + b - c, else b
/// (above) if |p-b| is not more than |p-c|, else c (above left).
static inline int mh_png_paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

/// Filters one row with PNG filter `type` (0–4) into `out`, without the type
/// byte. `prior` is the row above, or NULL for the first row (read as zeros).
/// This is the scalar definition every faster filter is tested against.
void mh_png_filter_row(int type, const uint8_t *restrict row, const uint8_t *restrict prior, size_t n, int bpp,
                       uint8_t *restrict out);

/// Sum over the residuals of |r| read as a signed byte: the usual estimate of
/// how well a filtered row compresses.
unsigned long mh_png_residual_cost(const uint8_t *residuals, size_t n);

/// Filters one row with the filter whose residuals have the smallest
/// `mh_png_residual_cost`, ties to the lower type, into `out`; returns the
/// type. `trial` is scratch of `n` bytes.
int mh_png_filter_adaptive_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint8_t *out,
                               uint8_t *trial);

/// Bytes a PNG needs around its IDAT data: signature, IHDR, IDAT framing, IEND.
enum { MH_PNG_FRAME_BYTES = 8 + 25 + 12 + 12 };

/// Checks an image (1–4 channels of 8 bits, a nonzero size PNG can state)
/// and the writer's own settings, and clears `out`; 0 with `error` set if
/// either is invalid.
int mh_png_start(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int settings_valid,
                 mh_buffer *out, mh_error *error);

/// Writes the signature and IHDR to `png`; returns the bytes written (33).
/// The IDAT's data then goes at `png + 33 + 8`.
size_t mh_png_begin(uint8_t *png, uint32_t width, uint32_t height, int channels);

/// Frames `length` bytes already at `png + at + 8` as the IDAT, then writes
/// IEND; returns the file's total size.
size_t mh_png_end(uint8_t *png, size_t at, size_t length);

#endif
