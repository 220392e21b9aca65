// Resampling along x with SSSE3: RGB and RGBA, four taps a step.
#include "kernels_internal.h"

#if defined(MH_HAVE_SSSE3_KERNELS)

/// RGB and RGBA along x with SSSE3: four taps a step. One 16-byte load holds
/// pixels t…t+3; two byte shuffles spread them into 16-bit lanes paired tap
/// by tap, (c0 of t, c0 of t+1, c1 of t, …) and the same for t+2, t+3, which
/// one multiply-add each weighs with (w_t, w_t+1) and (w_t+2, w_t+3). Taps
/// past the count weigh zero (rows are padded to 8), and the bytes read past
/// the footprint stay within the 16 the caller pads.
__attribute__((target("ssse3"), always_inline))
static inline void color_row_ssse3(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                                   const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    const int32_t bias = 1 << (MH_RESAMPLE_PRECISION - 1);
    const size_t c = (size_t)channels;
    const __m128i zero = _mm_setzero_si128();
    const __m128i first = pair_shuffle(channels, 0), second = pair_shuffle(channels, 2);
    for (int o = 0; o < out_width; o++) {
        const uint8_t *p = in + (size_t)starts[o] * c;
        const int16_t *w = weights + (size_t)o * (size_t)weight_stride;
        const int n = counts[o];
        __m128i acc = _mm_set1_epi32(bias);
        for (int t = 0; t < n; t += 4) {
            __m128i pixels = _mm_loadu_si128((const __m128i *)(p + (size_t)t * c));
            __m128i taps = _mm_loadl_epi64((const __m128i *)(w + t));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_shuffle_epi8(pixels, first), _mm_shuffle_epi32(taps, 0x00)));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_shuffle_epi8(pixels, second), _mm_shuffle_epi32(taps, 0x55)));
        }
        acc = _mm_srai_epi32(acc, MH_RESAMPLE_PRECISION);
        int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(acc, zero), zero));
        memcpy(out + (size_t)o * c, &packed, c);
    }
}

/// The kernel above with the channel count fixed, so every pixel's store is
/// a plain move rather than a call to memcpy.
__attribute__((target("ssse3")))
void mh_k_resample_row_color_ssse3(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                                     const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    if (channels == 3) color_row_ssse3(in, 3, starts, counts, weights, weight_stride, out_width, out);
    else color_row_ssse3(in, 4, starts, counts, weights, weight_stride, out_width, out);
}
#endif
