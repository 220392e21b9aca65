// Mihiraki's resampling kernels, inside: what the x86 kernel files share
// (kernels.c chooses, kernels_ssse3.c and kernels_avx2.c hold the SSSE3 and
// AVX2 steps). Not part of the module's C face.
#ifndef CMIHIRAKI_KERNELS_INTERNAL_H
#define CMIHIRAKI_KERNELS_INTERNAL_H

#include "CMihirakiKernels.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#include <tmmintrin.h>
#define MH_HAVE_SSSE3_KERNELS 1
#define MH_HAVE_AVX2_KERNELS 1
#endif

#if defined(MH_HAVE_SSSE3_KERNELS)
/// The byte shuffle that takes pixels `from` and `from + 1` of a 16-byte
/// load (RGB or RGBA) into 16-bit lanes paired tap by tap: (c0 of the
/// first, c0 of the second, c1 of the first, …); lanes of a missing alpha are zero.
static inline __m128i pair_shuffle(int channels, int from) {
    const char a = (char)(from * channels), b = (char)((from + 1) * channels);
    return _mm_setr_epi8(a, -1, b, -1, (char)(a + 1), -1, (char)(b + 1), -1, (char)(a + 2), -1, (char)(b + 2), -1,
                         channels == 4 ? (char)(a + 3) : -1, -1, channels == 4 ? (char)(b + 3) : -1, -1);
}

__attribute__((visibility("hidden"))) void mh_k_resample_row_color_ssse3(const uint8_t *in, int channels,
    const int32_t *starts, const int32_t *counts, const int16_t *weights, int weight_stride, int out_width, uint8_t *out);
#endif

#if defined(MH_HAVE_AVX2_KERNELS)
__attribute__((visibility("hidden"))) void mh_k_resample_row_color_avx2(const uint8_t *in, int channels,
    const int32_t *starts, const int32_t *counts, const int16_t *weights, int weight_stride, int out_width, uint8_t *out);
/// The exact inverse DCT (mh_idct_exact) in AVX2 when every coefficient is
/// within ±2^17 (the first pass then fits 32 bits): 1 when done, 0 to
/// leave the block to the scalar reference.
__attribute__((visibility("hidden"))) int mh_k_idct_exact_avx2(const int32_t *coefficients, int64_t *pixels);
__attribute__((visibility("hidden"))) size_t mh_k_resample_columns_avx2(const uint8_t *first, size_t src_stride,
    size_t row_bytes, const int16_t *w, int count, uint8_t *out);
__attribute__((visibility("hidden"))) void mh_k_resample_row_gray_avx2(const uint8_t *in, const int32_t *starts,
    const int32_t *counts, const int16_t *weights, int weight_stride, int out_width, uint8_t *out);
#endif

#endif
