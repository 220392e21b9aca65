// What the metric kernels share inside the module (metrics.c, the scalar
// references and the dispatch; metrics_simd.h, the vectorized bodies).
#ifndef CMIHIRAKI_METRICS_INTERNAL_H
#define CMIHIRAKI_METRICS_INTERNAL_H

#include "CMihirakiKernels.h"

#include <stdint.h>
#include <stdlib.h>

/// SSIM's Gaussian window: σ = 1.5 cut at 3.5 σ (scipy's and scikit-image's
/// truncate), so radius 5, 11 taps.
enum { MH_SSIM_RADIUS = 5 };

/// A colour sample blended over white with its alpha, rounded to 8 bits.
static inline uint32_t mh_metric_blend(uint32_t c, uint32_t a) {
    return (c * a + 255u * (255u - a) + 127u) / 255u;
}

/// scipy's 'reflect' edge (… c b a | a b c …) for any index.
static inline int mh_metric_reflect(int i, int n) {
    const int period = 2 * n;
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - 1 - i;
}

/// sRGB's 256 8-bit levels in linear light (IEC 61966-2-1).
__attribute__((visibility("hidden"))) const float *mh_metric_linear_table(void);
/// The 11 normalised weights of SSIM's window.
__attribute__((visibility("hidden"))) const float *mh_metric_gauss(void);

#if defined(__x86_64__)
__attribute__((visibility("hidden"))) void mh_k_ciede2000_avx2(const uint8_t *a, const uint8_t *b, size_t count,
                                                                float *out);
__attribute__((visibility("hidden"))) int mh_k_ssim_rows_avx2(const float *a, const float *b, int width, int height,
                                                               int y0, int y1, float *out);
#endif

#endif
