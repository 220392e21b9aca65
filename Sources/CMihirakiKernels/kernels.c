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

#if defined(MH_HAVE_SSSE3_KERNELS)
/// The byte shuffle that takes pixels `from` and `from + 1` of a 16-byte
/// load (RGB or RGBA) into 16-bit lanes paired tap by tap: (c0 of the
/// first, c0 of the second, c1 of the first, …); lanes of a missing alpha are zero.
static inline __m128i pair_shuffle(int channels, int from) {
    const char a = (char)(from * channels), b = (char)((from + 1) * channels);
    return _mm_setr_epi8(a, -1, b, -1, (char)(a + 1), -1, (char)(b + 1), -1, (char)(a + 2), -1, (char)(b + 2), -1,
                         channels == 4 ? (char)(a + 3) : -1, -1, channels == 4 ? (char)(b + 3) : -1, -1);
}

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
static void resample_row_color_ssse3(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                                     const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    if (channels == 3) color_row_ssse3(in, 3, starts, counts, weights, weight_stride, out_width, out);
    else color_row_ssse3(in, 4, starts, counts, weights, weight_stride, out_width, out);
}
#endif

#if defined(MH_HAVE_AVX2_KERNELS)
/// RGB and RGBA along x with AVX2: two outputs at once, one in each 16-byte
/// half, each half doing the SSSE3 kernel's step (four taps, two byte
/// shuffles into 16-bit pairs, two multiply-adds) on its own output. The pair
/// runs to the longer footprint; the shorter one's extra taps weigh zero
/// (weights are padded to 8). Footprints never start further left as the
/// outputs go right, so the left output's reads stay where the right one's
/// would; the right one's stay inside the row (plus the SSSE3 kernel's 16
/// bytes) unless the longer footprint, moved to its start, would pass the
/// last footprint's end. Only at the row's right edge does that happen, and
/// there the SSSE3 kernel takes the pair.
__attribute__((target("avx2"), always_inline))
static inline void color_row_avx2(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                                  const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    const int32_t bias = 1 << (MH_RESAMPLE_PRECISION - 1);
    const size_t c = (size_t)channels, stride = (size_t)weight_stride;
    const __m128i first = pair_shuffle(channels, 0), second = pair_shuffle(channels, 2);
    const __m256i first2 = _mm256_broadcastsi128_si256(first), second2 = _mm256_broadcastsi128_si256(second);
    if (out_width < 1) return;
    const int32_t end = starts[out_width - 1] + counts[out_width - 1];
    int o = 0;
    for (; o + 2 <= out_width; o += 2) {
        const int n = counts[o] > counts[o + 1] ? counts[o] : counts[o + 1];
        if (starts[o + 1] + n > end) {
            resample_row_color_ssse3(in, channels, starts + o, counts + o, weights + (size_t)o * stride,
                                     weight_stride, 2, out + (size_t)o * c);
            continue;
        }
        const uint8_t *p0 = in + (size_t)starts[o] * c, *p1 = in + (size_t)starts[o + 1] * c;
        const int16_t *w0 = weights + (size_t)o * stride, *w1 = w0 + stride;
        __m256i acc = _mm256_set1_epi32(bias);
        for (int t = 0; t < n; t += 4) {
            __m256i pixels = _mm256_loadu2_m128i((const __m128i *)(p1 + (size_t)t * c), (const __m128i *)(p0 + (size_t)t * c));
            __m256i taps = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(w0 + t))),
                                                   _mm_loadl_epi64((const __m128i *)(w1 + t)), 1);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(pixels, first2), _mm256_shuffle_epi32(taps, 0x00)));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(pixels, second2), _mm256_shuffle_epi32(taps, 0x55)));
        }
        acc = _mm256_srai_epi32(acc, MH_RESAMPLE_PRECISION);
        __m256i words = _mm256_packs_epi32(acc, acc);
        __m256i packed = _mm256_packus_epi16(words, words);
        int32_t a = _mm256_extract_epi32(packed, 0), b = _mm256_extract_epi32(packed, 4);
        memcpy(out + (size_t)o * c, &a, c);
        memcpy(out + (size_t)(o + 1) * c, &b, c);
    }
    if (o < out_width) resample_row_color_ssse3(in, channels, starts + o, counts + o, weights + (size_t)o * stride,
                                                weight_stride, 1, out + (size_t)o * c);
}

__attribute__((target("avx2")))
static void resample_row_color_avx2(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                                    const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    if (channels == 3) color_row_avx2(in, 3, starts, counts, weights, weight_stride, out_width, out);
    else color_row_avx2(in, 4, starts, counts, weights, weight_stride, out_width, out);
}

/// Columns with AVX2: the SSE2 loop of mh_resample_columns on 32 bytes at a
/// time. The byte and word unpacks work within each 16-byte half, and the
/// packs at the end undo them within each half, so the bytes come out in
/// order. Returns how many bytes of the row it did (a multiple of 32).
__attribute__((target("avx2")))
static size_t resample_columns_avx2(const uint8_t *first, size_t src_stride, size_t row_bytes,
                                    const int16_t *w, int count, uint8_t *out) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i bias = _mm256_set1_epi32(1 << (MH_RESAMPLE_PRECISION - 1));
    size_t i = 0;
    for (; i + 32 <= row_bytes; i += 32) {
        __m256i acc0 = bias, acc1 = bias, acc2 = bias, acc3 = bias;
        int t = 0;
        for (; t + 1 < count; t += 2) {
            __m256i r0 = _mm256_loadu_si256((const __m256i *)(first + (size_t)t * src_stride + i));
            __m256i r1 = _mm256_loadu_si256((const __m256i *)(first + (size_t)(t + 1) * src_stride + i));
            __m256i pair = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)w[t + 1] << 16) | (uint16_t)w[t]));
            __m256i lo0 = _mm256_unpacklo_epi8(r0, zero), lo1 = _mm256_unpacklo_epi8(r1, zero);
            __m256i hi0 = _mm256_unpackhi_epi8(r0, zero), hi1 = _mm256_unpackhi_epi8(r1, zero);
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(lo0, lo1), pair));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi16(lo0, lo1), pair));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi16(hi0, hi1), pair));
            acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi16(hi0, hi1), pair));
        }
        if (t < count) {
            __m256i r0 = _mm256_loadu_si256((const __m256i *)(first + (size_t)t * src_stride + i));
            __m256i single = _mm256_set1_epi32((int32_t)(uint16_t)w[t]);
            __m256i lo0 = _mm256_unpacklo_epi8(r0, zero), hi0 = _mm256_unpackhi_epi8(r0, zero);
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(lo0, zero), single));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi16(lo0, zero), single));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi16(hi0, zero), single));
            acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi16(hi0, zero), single));
        }
        acc0 = _mm256_srai_epi32(acc0, MH_RESAMPLE_PRECISION);
        acc1 = _mm256_srai_epi32(acc1, MH_RESAMPLE_PRECISION);
        acc2 = _mm256_srai_epi32(acc2, MH_RESAMPLE_PRECISION);
        acc3 = _mm256_srai_epi32(acc3, MH_RESAMPLE_PRECISION);
        __m256i packed = _mm256_packus_epi16(_mm256_packs_epi32(acc0, acc1), _mm256_packs_epi32(acc2, acc3));
        _mm256_storeu_si256((__m256i *)(out + i), packed);
    }
    return i;
}

/// One gray output along x with AVX2: sixteen taps per multiply-add, where
/// SSE2 takes eight. A footprint's last eight taps or fewer take one SSE2
/// step, so no read goes past the weights' padding (a multiple of 8) or the
/// 16 bytes past the row. Returns the four partial sums.
__attribute__((target("avx2"), always_inline))
static inline __m128i gray_taps_avx2(const uint8_t *p, const int16_t *w, int n, int sixteen) {
    if (sixteen) {
        // Every footprint fits the sixteen weight slots (zero past its
        // count): one step, no loop. The pixel read stays within the 16
        // bytes past the row, since the footprint ends inside it.
        __m256i px = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p));
        __m256i wide = _mm256_madd_epi16(px, _mm256_loadu_si256((const __m256i *)w));
        return _mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    }
    __m256i wide = _mm256_setzero_si256();
    int t = 0;
    for (; t + 8 < n; t += 16) {
        __m256i px = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p + t)));
        wide = _mm256_add_epi32(wide, _mm256_madd_epi16(px, _mm256_loadu_si256((const __m256i *)(w + t))));
    }
    __m128i a = _mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    if (t < n) {
        __m128i px = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(p + t)), _mm_setzero_si128());
        a = _mm_add_epi32(a, _mm_madd_epi16(px, _mm_loadu_si128((const __m128i *)(w + t))));
    }
    return a;
}

/// A gray row along x with AVX2; four outputs share one transpose-and-add
/// of their partial sums, as in the SSE2 kernel. Inlined twice, so the
/// common case (footprints of at most sixteen taps) has no loop per output.
__attribute__((target("avx2"), always_inline))
static inline void gray_row_avx2(const uint8_t *in, const int32_t *starts, const int32_t *counts,
                                 const int16_t *weights, size_t stride, int out_width, uint8_t *out, int sixteen) {
    const __m128i zero = _mm_setzero_si128();
    const int32_t bias = 1 << (MH_RESAMPLE_PRECISION - 1);
    const __m128i bias4 = _mm_set1_epi32(bias);
    int o = 0;
    for (; o + 4 <= out_width; o += 4) {
        __m128i a0 = gray_taps_avx2(in + starts[o], weights + (size_t)o * stride, counts[o], sixteen);
        __m128i a1 = gray_taps_avx2(in + starts[o + 1], weights + (size_t)(o + 1) * stride, counts[o + 1], sixteen);
        __m128i a2 = gray_taps_avx2(in + starts[o + 2], weights + (size_t)(o + 2) * stride, counts[o + 2], sixteen);
        __m128i a3 = gray_taps_avx2(in + starts[o + 3], weights + (size_t)(o + 3) * stride, counts[o + 3], sixteen);
        __m128i s01 = _mm_add_epi32(_mm_unpacklo_epi32(a0, a1), _mm_unpackhi_epi32(a0, a1));
        __m128i s23 = _mm_add_epi32(_mm_unpacklo_epi32(a2, a3), _mm_unpackhi_epi32(a2, a3));
        __m128i sums = _mm_add_epi32(_mm_unpacklo_epi64(s01, s23), _mm_unpackhi_epi64(s01, s23));
        sums = _mm_srai_epi32(_mm_add_epi32(sums, bias4), MH_RESAMPLE_PRECISION);
        int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(sums, zero), zero));
        memcpy(out + o, &packed, 4);
    }
    for (; o < out_width; o++) {
        __m128i a = gray_taps_avx2(in + starts[o], weights + (size_t)o * stride, counts[o], sixteen);
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0x4E));
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0xB1));
        int32_t v = (_mm_cvtsi128_si32(a) + bias) >> MH_RESAMPLE_PRECISION;
        out[o] = (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
}

__attribute__((target("avx2")))
static void resample_row_gray_avx2(const uint8_t *in, const int32_t *starts, const int32_t *counts,
                                   const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    if (weight_stride == 16) gray_row_avx2(in, starts, counts, weights, 16, out_width, out, 1);
    else gray_row_avx2(in, starts, counts, weights, (size_t)weight_stride, out_width, out, 0);
}
#endif

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
        if (avx2) i = resample_columns_avx2(first, src_stride, row_bytes, w, count, out);
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
            resample_row_gray_avx2(in, starts, counts, weights, weight_stride, out_width, out);
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
            resample_row_color_avx2(in, channels, starts, counts, weights, weight_stride, out_width, out);
            return;
        }
#endif
#if defined(MH_HAVE_SSSE3_KERNELS)
        if (mh_kernels_level() >= 2 && weight_stride % 8 == 0) {
            resample_row_color_ssse3(in, channels, starts, counts, weights, weight_stride, out_width, out);
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
