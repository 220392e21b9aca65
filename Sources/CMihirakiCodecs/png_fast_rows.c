// Mihiraki's fast PNG writer: rows filtered five ways at once and runs of
// zero residuals found, with SSE2 and scalar twins giving the same bytes.
#include "deflate_huffman.h"
#include "png_fast_rows.h"
#include "png_write.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// MARK: Filtering

#if defined(__SSE2__)
static inline __m128i abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

/// Paeth's predictor for eight 16-bit lanes: a if |p-a| is least, else b if
/// |p-b| is not more than |p-c|, else c (PNG's tie order).
static inline __m128i paeth16(__m128i a, __m128i b, __m128i c) {
    __m128i bc = _mm_sub_epi16(b, c), ac = _mm_sub_epi16(a, c);
    __m128i pa = abs16(bc), pb = abs16(ac), pc = abs16(_mm_add_epi16(bc, ac));
    __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    __m128i take_c = _mm_cmpgt_epi16(pb, pc);
    __m128i b_or_c = _mm_or_si128(_mm_and_si128(take_c, c), _mm_andnot_si128(take_c, b));
    return _mm_or_si128(_mm_andnot_si128(not_a, a), _mm_and_si128(not_a, b_or_c));
}

/// Adds |r| (r read as a signed byte) over 16 residuals to the two 64-bit lanes of `sum`.
static inline __m128i add_cost(__m128i sum, __m128i r) {
    const __m128i zero = _mm_setzero_si128();
    return _mm_add_epi64(sum, _mm_sad_epu8(_mm_min_epu8(r, _mm_sub_epi8(zero, r)), zero));
}

static inline unsigned long lanes(__m128i sum) {
    return (unsigned long)_mm_cvtsi128_si64(sum) + (unsigned long)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
}
#endif

/// The five residuals of byte `i`, as mh_png_filter_row defines them.
static inline void residuals_at(const uint8_t *row, const uint8_t *prior, size_t i, int bpp, uint8_t *const out[5],
                                unsigned long cost[5]) {
    int x = row[i], b = prior[i];
    int a = i >= (size_t)bpp ? row[i - bpp] : 0, c = i >= (size_t)bpp ? prior[i - bpp] : 0;
    int paeth = mh_png_paeth(a, b, c);
    const uint8_t r[5] = {(uint8_t)x, (uint8_t)(x - a), (uint8_t)(x - b), (uint8_t)(x - ((a + b) >> 1)),
                          (uint8_t)(x - paeth)};
    for (int k = 0; k < 5; k++) {
        out[k][i] = r[k];
        cost[k] += (unsigned long)abs((int)(int8_t)r[k]);
    }
}

/// The SSE2 twin of mh_png_filter_adaptive_row: every filter of the row at
/// once into `scratch` (five rows of `n`), then the cheapest copied to `out`.
/// `prior` is never NULL here: the first row's is a row of zeros.
int mh_fast_filter_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint8_t *out,
                           uint8_t *scratch) {
    uint8_t *const residual[5] = {scratch, scratch + n, scratch + 2 * n, scratch + 3 * n, scratch + 4 * n};
    unsigned long cost[5] = {0, 0, 0, 0, 0};
    size_t i = 0;
#if defined(__SSE2__)
    // The first 16 bytes, whose left neighbours may lie before the row, are done one by one.
    for (; i < n && i < 16; i++) residuals_at(row, prior, i, bpp, residual, cost);
    __m128i sum[5] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(),
                      _mm_setzero_si128()};
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(row + i));
        __m128i a = _mm_loadu_si128((const __m128i *)(row + i - bpp));
        __m128i b = _mm_loadu_si128((const __m128i *)(prior + i));
        __m128i c = _mm_loadu_si128((const __m128i *)(prior + i - bpp));
        // floor((a+b)/2): pavgb rounds up, so take back the odd bit.
        __m128i average = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
        __m128i paeth = _mm_packus_epi16(
            paeth16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, zero), _mm_unpacklo_epi8(c, zero)),
            paeth16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, zero), _mm_unpackhi_epi8(c, zero)));
        const __m128i r[5] = {x, _mm_sub_epi8(x, a), _mm_sub_epi8(x, b), _mm_sub_epi8(x, average),
                              _mm_sub_epi8(x, paeth)};
        for (int k = 0; k < 5; k++) {
            _mm_storeu_si128((__m128i *)(residual[k] + i), r[k]);
            sum[k] = add_cost(sum[k], r[k]);
        }
    }
    for (int k = 0; k < 5; k++) cost[k] += lanes(sum[k]);
#endif
    for (; i < n; i++) residuals_at(row, prior, i, bpp, residual, cost);
    int best = 0;
    for (int k = 1; k < 5; k++) if (cost[k] < cost[best]) best = k;
    memcpy(out, residual[best], n);
    return best;
}

// MARK: Runs of zero residuals

/// The first s in [from, n) where RUN_MIN zeros start, or n.
static size_t run_start_scalar(const uint8_t *data, size_t from, size_t n) {
    size_t zeros = 0;
    for (size_t i = from; i < n; i++) {
        zeros = data[i] ? 0 : zeros + 1;
        if (zeros == RUN_MIN) return i + 1 - RUN_MIN;
    }
    return n;
}

/// How many zeros start at `at`.
static size_t zeros_scalar(const uint8_t *data, size_t at, size_t n) {
    size_t i = at;
    while (i < n && data[i] == 0) i++;
    return i - at;
}

#if defined(__SSE2__)
static size_t run_start_sse2(const uint8_t *data, size_t from, size_t n) {
    const __m128i zero = _mm_setzero_si128();
    size_t s = from;
    for (; s + 32 <= n; s += 16) {
        uint32_t z = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(data + s)), zero)) |
                     (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(data + s + 16)), zero))
                         << 16;
        // Bit j: bytes j…j+3 are all zero (RUN_MIN is 4).
        uint32_t starts = z & (z >> 1) & (z >> 2) & (z >> 3) & 0xFFFFu;
        if (starts) return s + (size_t)__builtin_ctz(starts);
    }
    return run_start_scalar(data, s, n);
}

static size_t zeros_sse2(const uint8_t *data, size_t at, size_t n) {
    const __m128i zero = _mm_setzero_si128();
    size_t i = at;
    for (; i + 16 <= n; i += 16) {
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(data + i)), zero));
        if (mask != 0xFFFFu) return i + (size_t)__builtin_ctz(~mask) - at;
    }
    return i - at + zeros_scalar(data, i, n);
}
#endif


size_t mh_fast_next_run(const scanner *s, size_t from) {
#if defined(__SSE2__)
    if (!s->reference) return run_start_sse2(s->data, from, s->n);
#endif
    return run_start_scalar(s->data, from, s->n);
}

size_t mh_fast_run_length(const scanner *s, size_t at) {
#if defined(__SSE2__)
    if (!s->reference) return zeros_sse2(s->data, at, s->n);
#endif
    return zeros_scalar(s->data, at, s->n);
}
