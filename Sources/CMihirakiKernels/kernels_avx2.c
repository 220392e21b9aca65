// Resampling with AVX2: RGB and RGBA two outputs at once, gray sixteen taps a
// step, columns 32 bytes at a time.
#include "kernels_internal.h"

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
            mh_k_resample_row_color_ssse3(in, channels, starts + o, counts + o, weights + (size_t)o * stride,
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
    if (o < out_width) mh_k_resample_row_color_ssse3(in, channels, starts + o, counts + o, weights + (size_t)o * stride,
                                                weight_stride, 1, out + (size_t)o * c);
}

__attribute__((target("avx2")))
void mh_k_resample_row_color_avx2(const uint8_t *in, int channels, const int32_t *starts, const int32_t *counts,
                                    const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    if (channels == 3) color_row_avx2(in, 3, starts, counts, weights, weight_stride, out_width, out);
    else color_row_avx2(in, 4, starts, counts, weights, weight_stride, out_width, out);
}

/// Columns with AVX2: the SSE2 loop of mh_resample_columns on 32 bytes at a
/// time. The byte and word unpacks work within each 16-byte half, and the
/// packs at the end undo them within each half, so the bytes come out in
/// order. Returns how many bytes of the row it did (a multiple of 32).
__attribute__((target("avx2")))
size_t mh_k_resample_columns_avx2(const uint8_t *first, size_t src_stride, size_t row_bytes,
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
void mh_k_resample_row_gray_avx2(const uint8_t *in, const int32_t *starts, const int32_t *counts,
                                   const int16_t *weights, int weight_stride, int out_width, uint8_t *out) {
    if (weight_stride == 16) gray_row_avx2(in, starts, counts, weights, 16, out_width, out, 1);
    else gray_row_avx2(in, starts, counts, weights, (size_t)weight_stride, out_width, out, 0);
}
#endif

// MARK: Inverse DCT, exact

/// Row by row of coefficients: across[v] (x = 0…7, 32-bit: |F| ≤ 2^17 and a
/// row of T sums to under 2^14, so under 2^31) = Σ_u T[x][u]·F(u,v); then
/// each output row y, four pixels a lane group, Σ_v T[y][v]·across[v][x] in
/// 64 bits (vpmuldq: 32 × 32 → 64, exact). Rows of coefficients all zero are
/// passed over, as the scalar reference does; the sums are the same integers.
__attribute__((target("avx2")))
int mh_k_idct_exact_avx2(const int32_t *coefficients, int64_t *pixels) {
    const __m256i above = _mm256_set1_epi32(1 << 17), below = _mm256_set1_epi32(-(1 << 17));
    int nonzero[8], count = 0;
    for (int v = 0; v < 8; v++) {
        const __m256i row = _mm256_loadu_si256((const __m256i *)(coefficients + v * 8));
        const __m256i outside = _mm256_or_si256(_mm256_cmpgt_epi32(row, above), _mm256_cmpgt_epi32(below, row));
        if (!_mm256_testz_si256(outside, outside)) return 0;
        if (!_mm256_testz_si256(row, row)) nonzero[count++] = v;
    }
    // The basis by columns: column u of T as eight 32-bit lanes (T[0][u] … T[7][u]).
    __m256i columns[8];
    for (int u = 0; u < 8; u++)
        columns[u] = _mm256_setr_epi32(mh_idct_basis[0][u], mh_idct_basis[1][u], mh_idct_basis[2][u], mh_idct_basis[3][u],
                                       mh_idct_basis[4][u], mh_idct_basis[5][u], mh_idct_basis[6][u], mh_idct_basis[7][u]);
    __m256i low[8], high[8];  // across[v][0…3] and [4…7], sign-extended to 64 bits
    for (int i = 0; i < count; i++) {
        const int v = nonzero[i];
        __m256i across = _mm256_setzero_si256();
        for (int u = 0; u < 8; u++)
            across = _mm256_add_epi32(across, _mm256_mullo_epi32(columns[u], _mm256_set1_epi32(coefficients[v * 8 + u])));
        low[i] = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(across));
        high[i] = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(across, 1));
    }
    for (int y = 0; y < 8; y++) {
        __m256i left = _mm256_setzero_si256(), right = _mm256_setzero_si256();
        for (int i = 0; i < count; i++) {
            const __m256i t = _mm256_set1_epi64x(mh_idct_basis[y][nonzero[i]]);
            left = _mm256_add_epi64(left, _mm256_mul_epi32(low[i], t));
            right = _mm256_add_epi64(right, _mm256_mul_epi32(high[i], t));
        }
        _mm256_storeu_si256((__m256i *)(pixels + y * 8), left);
        _mm256_storeu_si256((__m256i *)(pixels + y * 8 + 4), right);
    }
    return 1;
}
