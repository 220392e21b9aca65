// The perceptual metrics' vectorized bodies (metrics_simd.h) compiled for
// AVX2: eight lanes, the same operations in the same order as the baseline
// build, so the same bits.
#include "metrics_simd.h"

#if defined(__x86_64__)
__attribute__((target("avx2")))
void mh_k_ciede2000_avx2(const uint8_t *a, const uint8_t *b, size_t count, float *out) {
    m_ciede2000_rgba(a, b, count, out);
}

__attribute__((target("avx2")))
int mh_k_ssim_rows_avx2(const float *a, const float *b, int width, int height, int y0, int y1, float *out) {
    return m_ssim_rows(a, b, width, height, y0, y1, out);
}
#endif
