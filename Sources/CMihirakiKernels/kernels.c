#include "kernels_internal.h"

// MARK: Which kernels

// Read by every worker, set only by tests (every level gives the same
// bytes); relaxed atomics, so no level is ever half-written.
static int kernel_limit = 3;

void mh_kernels_limit(int level) { __atomic_store_n(&kernel_limit, level, __ATOMIC_RELAXED); }

int mh_kernels_level(void) {
#if defined(MH_HAVE_SSSE3_KERNELS)
    // The CPU's own level, found once: 3 with AVX2, 2 with SSSE3, else 1.
    static int cpu = -1;
    int known = __atomic_load_n(&cpu, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 3 : __builtin_cpu_supports("ssse3") ? 2 : 1;
        __atomic_store_n(&cpu, known, __ATOMIC_RELAXED);
    }
    const int limit = __atomic_load_n(&kernel_limit, __ATOMIC_RELAXED);
    return known < limit ? known : (limit < 1 ? 1 : limit);
#else
    return 1;
#endif
}


static inline uint8_t clamp_byte(int32_t acc) {
    int32_t v = acc >> MH_RESAMPLE_PRECISION;
    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

void mh_resample_columns(const uint8_t *src, size_t src_stride, size_t row_bytes,
                         const int32_t *starts, const int32_t *counts, const int16_t *weights, int taps,
                         int out_rows, uint8_t *dst, size_t dst_stride) {
    const int32_t bias = 1 << (MH_RESAMPLE_PRECISION - 1);
#if defined(MH_HAVE_AVX2_KERNELS)
    const int avx2 = mh_kernels_level() >= 3;
#endif
    for (int o = 0; o < out_rows; o++) {
        const uint8_t *first = src + (size_t)starts[o] * src_stride;
        const int16_t *w = weights + (size_t)o * (size_t)taps;
        const int count = counts[o];
        uint8_t *out = dst + (size_t)o * dst_stride;
        size_t i = 0;
#if defined(MH_HAVE_AVX2_KERNELS)
        if (avx2) i = mh_k_resample_columns_avx2(first, src_stride, row_bytes, w, count, out);
#endif
#if defined(__SSE2__)
        // 16 bytes at a time; two source rows per multiply-add (pmaddwd):
        // bytes of rows t and t+1 interleaved as 16-bit pairs, times (w_t, w_t+1).
        const __m128i zero = _mm_setzero_si128();
        for (; i + 16 <= row_bytes; i += 16) {
            __m128i acc0 = _mm_set1_epi32(bias), acc1 = acc0, acc2 = acc0, acc3 = acc0;
            int t = 0;
            for (; t + 1 < count; t += 2) {
                __m128i r0 = _mm_loadu_si128((const __m128i *)(first + (size_t)t * src_stride + i));
                __m128i r1 = _mm_loadu_si128((const __m128i *)(first + (size_t)(t + 1) * src_stride + i));
                __m128i pair = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)w[t + 1] << 16) | (uint16_t)w[t]));
                __m128i lo0 = _mm_unpacklo_epi8(r0, zero), lo1 = _mm_unpacklo_epi8(r1, zero);
                __m128i hi0 = _mm_unpackhi_epi8(r0, zero), hi1 = _mm_unpackhi_epi8(r1, zero);
                acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi16(lo0, lo1), pair));
                acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi16(lo0, lo1), pair));
                acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi16(hi0, hi1), pair));
                acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi16(hi0, hi1), pair));
            }
            if (t < count) {
                __m128i r0 = _mm_loadu_si128((const __m128i *)(first + (size_t)t * src_stride + i));
                __m128i single = _mm_set1_epi32((int32_t)(uint16_t)w[t]);
                __m128i lo0 = _mm_unpacklo_epi8(r0, zero), hi0 = _mm_unpackhi_epi8(r0, zero);
                acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi16(lo0, zero), single));
                acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi16(lo0, zero), single));
                acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi16(hi0, zero), single));
                acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi16(hi0, zero), single));
            }
            acc0 = _mm_srai_epi32(acc0, MH_RESAMPLE_PRECISION);
            acc1 = _mm_srai_epi32(acc1, MH_RESAMPLE_PRECISION);
            acc2 = _mm_srai_epi32(acc2, MH_RESAMPLE_PRECISION);
            acc3 = _mm_srai_epi32(acc3, MH_RESAMPLE_PRECISION);
            // Saturating packs clamp to 0…255 exactly as clamp_byte does.
            __m128i packed = _mm_packus_epi16(_mm_packs_epi32(acc0, acc1), _mm_packs_epi32(acc2, acc3));
            _mm_storeu_si128((__m128i *)(out + i), packed);
        }
#endif
        for (; i < row_bytes; i++) {
            int32_t acc = bias;
            for (int t = 0; t < count; t++) acc += (int32_t)w[t] * (int32_t)first[(size_t)t * src_stride + i];
            out[i] = clamp_byte(acc);
        }
    }
}

#if defined(__SSE2__)
/// RGB and RGBA along x with SSE2 alone: two pixels per multiply-add,
/// (c0 of t, c0 of t+1, c1 of t, …) times (w_t, w_t+1). Inlined with the
/// channel count fixed, so a pixel's store is a plain move.
__attribute__((always_inline))
static inline void color_row_sse2(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                                  const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    const __m128i zero = _mm_setzero_si128();
    for (int o = 0; o < out_width; o++) {
        const uint8_t *p = in + (size_t)starts[o] * (size_t)channels;
        const int16_t *w = weights + (size_t)o * (size_t)weight_stride;
        const int n = counts[o];
        __m128i acc = _mm_set1_epi32(1 << (MH_RESAMPLE_PRECISION - 1));
        for (int t = 0; t < n; t += 2) {
            int32_t a, b;
            memcpy(&a, p + (size_t)t * (size_t)channels, 4);
            memcpy(&b, p + (size_t)(t + 1) * (size_t)channels, 4);
            __m128i px = _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128(a), _mm_cvtsi32_si128(b)), zero);
            __m128i pair = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)w[t + 1] << 16) | (uint16_t)w[t]));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(px, pair));
        }
        acc = _mm_srai_epi32(acc, MH_RESAMPLE_PRECISION);
        int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(acc, zero), zero));
        memcpy(out + (size_t)o * (size_t)channels, &packed, (size_t)channels);
    }
}
#endif

void mh_resample_row(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                     const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    const int32_t bias = 1 << (MH_RESAMPLE_PRECISION - 1);
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    if (channels == 1) {
#if defined(MH_HAVE_AVX2_KERNELS)
        if (mh_kernels_level() >= 3) {
            mh_k_resample_row_gray_avx2(in, starts, counts, weights, weight_stride, out_width, out);
            return;
        }
#endif
        // Eight taps per multiply-add; weights past a footprint are zero, so
        // the bytes read past its last tap (callers pad rows) add nothing.
        // Four outputs at a time share one transpose-and-add for their sums.
        int o = 0;
        const __m128i bias4 = _mm_set1_epi32(bias);
        for (; o + 4 <= out_width; o += 4) {
            __m128i acc[4];
            for (int j = 0; j < 4; j++) {
                const uint8_t *p = in + starts[o + j];
                const int16_t *w = weights + (size_t)(o + j) * (size_t)weight_stride;
                __m128i a = zero;
                for (int t = 0; t < counts[o + j]; t += 8) {
                    __m128i px = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(p + t)), zero);
                    a = _mm_add_epi32(a, _mm_madd_epi16(px, _mm_loadu_si128((const __m128i *)(w + t))));
                }
                acc[j] = a;
            }
            __m128i s01 = _mm_add_epi32(_mm_unpacklo_epi32(acc[0], acc[1]), _mm_unpackhi_epi32(acc[0], acc[1]));
            __m128i s23 = _mm_add_epi32(_mm_unpacklo_epi32(acc[2], acc[3]), _mm_unpackhi_epi32(acc[2], acc[3]));
            __m128i sums = _mm_add_epi32(_mm_unpacklo_epi64(s01, s23), _mm_unpackhi_epi64(s01, s23));
            sums = _mm_srai_epi32(_mm_add_epi32(sums, bias4), MH_RESAMPLE_PRECISION);
            int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(sums, zero), zero));
            memcpy(out + o, &packed, 4);
        }
        for (; o < out_width; o++) {
            const uint8_t *p = in + starts[o];
            const int16_t *w = weights + (size_t)o * (size_t)weight_stride;
            __m128i a = zero;
            for (int t = 0; t < counts[o]; t += 8) {
                __m128i px = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(p + t)), zero);
                a = _mm_add_epi32(a, _mm_madd_epi16(px, _mm_loadu_si128((const __m128i *)(w + t))));
            }
            a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0x4E));
            a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0xB1));
            out[o] = clamp_byte(_mm_cvtsi128_si32(a) + bias);
        }
        return;
    }
    if (channels == 3 || channels == 4) {
#if defined(MH_HAVE_AVX2_KERNELS)
        if (mh_kernels_level() >= 3 && weight_stride % 8 == 0) {
            mh_k_resample_row_color_avx2(in, channels, starts, counts, weights, weight_stride, out_width, out);
            return;
        }
#endif
#if defined(MH_HAVE_SSSE3_KERNELS)
        if (mh_kernels_level() >= 2 && weight_stride % 8 == 0) {
            mh_k_resample_row_color_ssse3(in, channels, starts, counts, weights, weight_stride, out_width, out);
            return;
        }
#endif
        if (channels == 3) color_row_sse2(in, 3, starts, counts, weights, weight_stride, out_width, out);
        else color_row_sse2(in, 4, starts, counts, weights, weight_stride, out_width, out);
        return;
    }
#endif
    for (int o = 0; o < out_width; o++) {
        const uint8_t *p = in + (size_t)starts[o] * (size_t)channels;
        const int16_t *w = weights + (size_t)o * (size_t)weight_stride;
        for (int k = 0; k < channels; k++) {
            int32_t acc = bias;
            for (int t = 0; t < counts[o]; t++) acc += (int32_t)w[t] * (int32_t)p[(size_t)t * (size_t)channels + (size_t)k];
            out[(size_t)o * (size_t)channels + (size_t)k] = clamp_byte(acc);
        }
    }
}

int mh_gray_opaque(const uint8_t *pixels, size_t count, int channels) {
    if (channels != 3 && channels != 4) return 0;
    unsigned colour = 0, see_through = 0;
    // Differences gathered over 4,096 pixels at a time: no branch per pixel,
    // and an early end once neither answer can change.
    for (size_t start = 0; start < count; start += 4096) {
        const size_t end = count - start < 4096 ? count : start + 4096;
        for (size_t i = start; i < end; i++) {
            const uint8_t *p = pixels + i * (size_t)channels;
            colour |= (unsigned)(p[0] ^ p[1]) | (unsigned)(p[1] ^ p[2]);
            if (channels == 4) see_through |= (unsigned)(p[3] ^ 255);
        }
        if (colour && (channels == 3 || see_through)) break;
    }
    return (colour ? 0 : MH_PIXELS_GRAY) | (see_through ? 0 : MH_PIXELS_OPAQUE);
}

int mh_compact_if_gray(uint8_t *pixels, size_t count, int channels) {
    if (mh_gray_opaque(pixels, count, channels) != (MH_PIXELS_GRAY | MH_PIXELS_OPAQUE)) return 0;
    for (size_t i = 0; i < count; i++) pixels[i] = pixels[i * (size_t)channels];
    return 1;
}

// MARK: Inverse DCT, exact

const int32_t mh_idct_basis[8][8] = {
    {1448, 2009, 1892, 1703, 1448, 1138, 784, 400},
    {1448, 1703, 784, -400, -1448, -2009, -1892, -1138},
    {1448, 1138, -784, -2009, -1448, 400, 1892, 1703},
    {1448, 400, -1892, -1138, 1448, 1703, -784, -2009},
    {1448, -400, -1892, 1138, 1448, -1703, -784, 2009},
    {1448, -1138, -784, 2009, -1448, -400, 1892, -1703},
    {1448, -1703, 784, 400, -1448, 2009, -1892, 1138},
    {1448, -2009, 1892, -1703, 1448, -1138, 784, -400},
};

/// The scalar reference: row by row of coefficients, only those that are
/// not zero (a scanned page's blocks hold a few: paper's one, the DC).
/// Each term is an exact integer and no sum can overflow (|F| < 2^31, a
/// row of T sums to under 2^14), so the order changes nothing.
void mh_idct_exact_scalar(const int32_t coefficients[64], int64_t pixels[64]) {
    for (int i = 0; i < 64; i++) pixels[i] = 0;
    for (int v = 0; v < 8; v++) {
        int64_t across[8] = {0};  // across[x] = Σ_u T[x][u]·F(u,v)
        int any = 0;
        for (int u = 0; u < 8; u++) {
            const int64_t coefficient = coefficients[v * 8 + u];
            if (coefficient == 0) continue;
            any = 1;
            for (int x = 0; x < 8; x++) across[x] += mh_idct_basis[x][u] * coefficient;
        }
        if (!any) continue;
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) pixels[y * 8 + x] += mh_idct_basis[y][v] * across[x];
    }
}

void mh_idct_exact(const int32_t coefficients[64], int64_t pixels[64]) {
#if defined(MH_HAVE_AVX2_KERNELS)
    if (mh_kernels_level() >= 3 && mh_k_idct_exact_avx2(coefficients, pixels)) return;
#endif
    mh_idct_exact_scalar(coefficients, pixels);
}
