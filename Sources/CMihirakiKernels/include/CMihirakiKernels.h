// Mihiraki's pixel kernels that need instructions Swift's SIMD types do not
// reach (a 16×16→32-bit multiply-add, a 32×32→64-bit multiply). Integer
// arithmetic only, so the results are bit-identical to the scalar
// reference (in MihirakiRaster for resampling, here for the inverse DCT) on
// every CPU; the tests check that.
#ifndef CMIHIRAKI_KERNELS_H
#define CMIHIRAKI_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Fractional bits of every resampling weight, here and in the Swift reference
/// (`ResampleKernel`). 14 keeps a weight times a pixel, summed over a few
/// dozen taps, inside 32 bits, and a weight inside the 16 bits `pmaddwd` takes.
enum { MH_RESAMPLE_PRECISION = 14 };

/// Resamples along columns: output row `o` is
/// `clamp((2^(P-1) + Σ_t weights[o·taps + t] · src[starts[o] + t][i]) >> P, 0, 255)`
/// with `P = MH_RESAMPLE_PRECISION`
/// for every byte `i` of a row (`row_bytes` bytes; channels do not matter).
void mh_resample_columns(const uint8_t *src, size_t src_stride, size_t row_bytes,
                         const int32_t *starts, const int32_t *counts, const int16_t *weights, int taps,
                         int out_rows, uint8_t *dst, size_t dst_stride);

/// Resamples one row of `channels`-byte pixels along x: output pixel `o`
/// weighs `counts[o]` input pixels from `starts[o]` with
/// `weights[o · weight_stride …]`, which must be zero-padded to a multiple of
/// 8. `in` must be readable 16 bytes past its last pixel.
void mh_resample_row(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                     const int16_t *weights, int weight_stride, int out_width, uint8_t *out);

/// The kernels in use: 3 when the CPU has AVX2 (columns 32 bytes at a time,
/// gray rows sixteen taps a step), 2 with SSSE3 (RGB and RGBA along x take
/// four taps a step), 1 for SSE2 alone. Tests lower the limit to check every
/// level's kernels; every level gives the same bytes.
void mh_kernels_limit(int level);
int mh_kernels_level(void);

enum { MH_PIXELS_GRAY = 1, MH_PIXELS_OPAQUE = 2 };

/// What `count` pixels of 3 or 4 samples are: MH_PIXELS_GRAY when every
/// pixel's colour samples are equal, MH_PIXELS_OPAQUE when every alpha is 255
/// (always, with 3 samples); 0 for other channel counts.
int mh_gray_opaque(const uint8_t *pixels, size_t count, int channels);

/// When all `count` pixels are gray and opaque (`mh_gray_opaque`), rewrites
/// the buffer's start as one sample a pixel and returns 1; else leaves it
/// and returns 0.
int mh_compact_if_gray(uint8_t *pixels, size_t count, int channels);


/// `C(u)/2 · cos((2x+1)uπ/16)` × 4096, rounded: row x, column u. The 8×8
/// inverse DCT is `f(x,y) = Σ_v Σ_u T[y][v]·T[x][u]·F(u,v)`; integers keep
/// what is computed from it the same on every machine.
extern const int32_t mh_idct_basis[8][8];

/// The exact inverse DCT of one 8×8 block of dequantized coefficients
/// (`coefficients[v·8 + u]` = F(u,v)), × 2^24: `pixels[y·8 + x]` =
/// `Σ_v Σ_u T[y][v]·T[x][u]·F(u,v)` with T = `mh_idct_basis`, in exact
/// 64-bit integers, the same at every kernel level (AVX2 where every
/// coefficient is within ±2^17, which a real 8-bit JPEG's are; the scalar
/// reference otherwise).
void mh_idct_exact(const int32_t coefficients[64], int64_t pixels[64]);
/// The scalar reference mh_idct_exact is tested against, at any level.
void mh_idct_exact_scalar(const int32_t coefficients[64], int64_t pixels[64]);

/// ΔE00 (CIEDE2000, kL = kC = kH = 1) of two CIELAB colours, in double: the
/// scalar reference, checked against Sharma, Wu and Dalal's test pairs.
double mh_ciede2000_lab(const double lab1[3], const double lab2[3]);
/// An 8-bit sRGB colour in CIELAB (D65, the 2° observer), in double.
void mh_srgb8_to_lab(const uint8_t rgb[3], double lab[3]);
/// ΔE00 of `count` pairs of straight-RGBA pixels, each blended over white
/// and rounded to 8 bits first: `mh_srgb8_to_lab` and `mh_ciede2000_lab`.
void mh_ciede2000_rgba_scalar(const uint8_t *a, const uint8_t *b, size_t count, double *out);
/// The same in single precision, vectorized (AVX2 where the CPU has it);
/// every kernel level gives the same bits.
void mh_ciede2000_rgba(const uint8_t *a, const uint8_t *b, size_t count, float *out);
/// Rec. 601 luma (0.299 R + 0.587 G + 0.114 B) of straight-RGBA pixels
/// blended over white as above.
void mh_luma601_rgba(const uint8_t *pixels, size_t count, float *out);
/// Local SSIM (Wang et al. 2004; Gaussian window σ = 1.5 over 11×11, edges
/// mirrored … c b a | a b c …, C1 = (0.01·255)², C2 = (0.03·255)²) of rows
/// [y0, y1) of two `width` × `height` planes: `out[(y − y0)·width + x]`.
/// Returns 1, or 0 when the rows are out of range or memory ran out. Every
/// kernel level gives the same bits.
int mh_ssim_rows(const float *a, const float *b, int width, int height, int y0, int y1, float *out);
/// The scalar reference: the whole 11×11 window per pixel, in double.
void mh_ssim_rows_scalar(const float *a, const float *b, int width, int height, int y0, int y1, double *out);

#ifdef __cplusplus
}
#endif

#endif
