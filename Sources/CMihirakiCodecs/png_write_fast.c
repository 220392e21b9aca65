// `--compression fast`: Mihiraki's PNG writer without an LZ77 search.
//
// 1. Each row is filtered with the filter whose residuals have the smallest
//    sum (the rule `small` uses), all five computed at once with SSE2.
// 2. One deflate block whose Huffman codes are built for this image from
//    its own byte counts. A run of four or more zero residuals (blank paper,
//    flat colour, the margins around a page) is a literal 0 followed by
//    matches at distance 1; everything else is a literal. Finding runs is
//    SSE2 too.
// 3. If that block would be larger than the data stored as is (noise), the
//    data is stored.
//
// Every SIMD step has a scalar twin selected by `reference`; both give the
// same bytes, which the tests check. The output is a plain PNG like the other
// writer's: 8-bit, one IDAT, no ancillary chunk.
#include "png_write.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
    RUN_MIN = 4,          // zero residuals in a row that start a run
    MATCH_MIN = 3,
    MATCH_MAX = 258,
    LITLEN_SYMBOLS = 286,
    END_OF_BLOCK = 256,
    CODE_LIMIT = 15,
    LENGTH_CODES = 19,   // the code-length alphabet
    LENGTH_CODE_LIMIT = 7,
    STORED_MAX = 65535,
};

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
static int filter_row_fast(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint8_t *out,
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

typedef struct scanner {
    const uint8_t *data;
    size_t n;
    int reference;
} scanner;

static size_t next_run(const scanner *s, size_t from) {
#if defined(__SSE2__)
    if (!s->reference) return run_start_sse2(s->data, from, s->n);
#endif
    return run_start_scalar(s->data, from, s->n);
}

static size_t run_length(const scanner *s, size_t at) {
#if defined(__SSE2__)
    if (!s->reference) return zeros_sse2(s->data, at, s->n);
#endif
    return zeros_scalar(s->data, at, s->n);
}

// MARK: Huffman codes

typedef struct length_symbol {
    uint16_t symbol;  // 257…285
    uint8_t extra_bits;
    uint16_t extra;
} length_symbol;

/// Deflate's length symbols for match lengths 3…258.
static void length_table(length_symbol table[MATCH_MAX + 1]) {
    static const uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint8_t extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    for (int code = 0; code < 29; code++) {
        int last = code == 28 ? MATCH_MAX : (code == 27 ? MATCH_MAX - 1 : base[code + 1] - 1);
        for (int length = base[code]; length <= last; length++)
            table[length] = (length_symbol){(uint16_t)(257 + code), extra[code], (uint16_t)(length - base[code])};
    }
}

/// Code lengths of at most `limit` bits from frequencies (0 for an unused
/// symbol), by Huffman's construction; if the tree is too deep, the
/// frequencies are halved and it is built again. Ties take the lower symbol
/// first, so the result depends on the frequencies alone. At least two
/// symbols must be used, which keeps every code complete.
static void huffman_lengths(const uint64_t *frequency, int count, int limit, uint8_t *lengths) {
    uint64_t weight[2 * LITLEN_SYMBOLS], freq[LITLEN_SYMBOLS];
    int symbol[LITLEN_SYMBOLS], parent[2 * LITLEN_SYMBOLS], depth[2 * LITLEN_SYMBOLS];
    memcpy(freq, frequency, sizeof(uint64_t) * (size_t)count);
    memset(lengths, 0, (size_t)count);
    for (;;) {
        int leaves = 0;
        for (int s = 0; s < count; s++) {
            if (freq[s] == 0) continue;
            int j = leaves++;  // insertion sort by (frequency, symbol)
            while (j > 0 && freq[symbol[j - 1]] > freq[s]) { symbol[j] = symbol[j - 1]; j--; }
            symbol[j] = s;
        }
        for (int j = 0; j < leaves; j++) weight[j] = freq[symbol[j]];
        // Two queues: sorted leaves, and internal nodes made in order of weight.
        int leaf = 0, inner = leaves, next = leaves;
        while (next < 2 * leaves - 1) {
            int pick[2];
            for (int k = 0; k < 2; k++)
                pick[k] = (leaf < leaves && (inner >= next || weight[leaf] <= weight[inner])) ? leaf++ : inner++;
            weight[next] = weight[pick[0]] + weight[pick[1]];
            parent[pick[0]] = parent[pick[1]] = next++;
        }
        int root = 2 * leaves - 2, deepest = 0;
        depth[root] = 0;
        for (int node = root - 1; node >= 0; node--) depth[node] = depth[parent[node]] + 1;
        for (int j = 0; j < leaves; j++) deepest = depth[j] > deepest ? depth[j] : deepest;
        if (deepest <= limit) {
            for (int j = 0; j < leaves; j++) lengths[symbol[j]] = (uint8_t)depth[j];
            return;
        }
        for (int s = 0; s < count; s++) freq[s] = (freq[s] + 1) >> 1;
    }
}

/// Makes sure at least two symbols are used (the first unused ones get a count of 1).
static void at_least_two(uint64_t *frequency, int count) {
    int used = 0;
    for (int s = 0; s < count; s++) used += frequency[s] != 0;
    for (int s = 0; s < count && used < 2; s++)
        if (frequency[s] == 0) { frequency[s] = 1; used++; }
}

/// Deflate's canonical codes for `lengths`, bit-reversed for LSB-first output.
static void canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
    int per_length[CODE_LIMIT + 1] = {0}, next[CODE_LIMIT + 1] = {0};
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    int code = 0;
    for (int bits = 1; bits <= CODE_LIMIT; bits++) {
        code = (code + per_length[bits - 1]) << 1;
        next[bits] = code;
    }
    for (int s = 0; s < count; s++) {
        int length = lengths[s];
        codes[s] = 0;
        if (length == 0) continue;
        unsigned value = (unsigned)next[length]++, reversed = 0;
        for (int k = 0; k < length; k++) reversed |= ((value >> k) & 1u) << (length - 1 - k);
        codes[s] = (uint16_t)reversed;
    }
}

// MARK: Bits

/// Deflate's bit order, LSB first. Every flush stores eight bytes and keeps
/// the bits of the last partial byte, so no branch decides when to write;
/// the buffer needs BIT_SLACK bytes past the end.
typedef struct bit_writer {
    uint8_t *at;
    uint64_t bits;
    unsigned count;  // at most 7 after a flush
} bit_writer;

enum { BIT_SLACK = 8 };

static inline void flush(bit_writer *w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(w->at, &w->bits, 8);
#else
    for (int k = 0; k < 8; k++) w->at[k] = (uint8_t)(w->bits >> (8 * k));
#endif
    w->at += w->count >> 3;
    w->bits = (w->count & ~7u) == 64 ? 0 : w->bits >> (w->count & ~7u);
    w->count &= 7;
}

/// Adds up to 57 bits.
static inline void put_bits(bit_writer *w, uint64_t value, unsigned count) {
    w->bits |= value << w->count;
    w->count += count;
    flush(w);
}

static void flush_all(bit_writer *w) {
    flush(w);
    if (w->count) *w->at++ = (uint8_t)w->bits;
}

// MARK: The block

typedef struct block_plan {
    uint8_t lengths[LITLEN_SYMBOLS];
    uint16_t codes[LITLEN_SYMBOLS];
    uint32_t packed[256];   // the literals' code | length << 16, one load each
    uint8_t length_lengths[LENGTH_CODES];
    uint16_t length_codes[LENGTH_CODES];
    int literal_count;      // HLIT
    int length_code_count;  // HCLEN
    uint64_t bits;          // the whole block, header included
} block_plan;

static const uint8_t length_order[LENGTH_CODES] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
/// Both distance codes are one bit long; code 0 is distance 1, the only one used.
enum { DISTANCE_CODES = 2 };

/// Counts the symbols the data will be written with and builds its codes.
static void plan_block(const scanner *s, const length_symbol *table, block_plan *plan) {
    uint64_t frequency[LITLEN_SYMBOLS] = {0}, quarter[3][256] = {{0}};
    const uint8_t *data = s->data;
    size_t i = 0;
    for (; i + 4 <= s->n; i += 4) {  // four tables, so neighbouring equal bytes do not wait on each other
        frequency[data[i]]++; quarter[0][data[i + 1]]++; quarter[1][data[i + 2]]++; quarter[2][data[i + 3]]++;
    }
    for (; i < s->n; i++) frequency[data[i]]++;
    for (int b = 0; b < 256; b++) frequency[b] += quarter[0][b] + quarter[1][b] + quarter[2][b];
    // Each run: its first zero stays a literal; matches take the rest but for a tail of 0–2.
    uint64_t extra_bits = 0, matches = 0;
    for (size_t at = next_run(s, 0); at < s->n;) {
        size_t run = run_length(s, at), rest = run - 1;
        while (rest >= MATCH_MIN) {
            size_t length = rest < MATCH_MAX ? rest : MATCH_MAX;
            frequency[table[length].symbol]++;
            frequency[0] -= length;
            extra_bits += table[length].extra_bits;
            matches++;
            rest -= length;
        }
        at = next_run(s, at + run);
    }
    frequency[END_OF_BLOCK] = 1;
    uint64_t weights[LITLEN_SYMBOLS];  // what the codes are built from; `frequency` stays what is written
    memcpy(weights, frequency, sizeof weights);
    at_least_two(weights, LITLEN_SYMBOLS);
    huffman_lengths(weights, LITLEN_SYMBOLS, CODE_LIMIT, plan->lengths);
    canonical_codes(plan->lengths, LITLEN_SYMBOLS, plan->codes);
    for (int b = 0; b < 256; b++) plan->packed[b] = plan->codes[b] | (uint32_t)plan->lengths[b] << 16;
    plan->literal_count = LITLEN_SYMBOLS;
    while (plan->lengths[plan->literal_count - 1] == 0) plan->literal_count--;

    // The code lengths themselves, written with symbols 0–15 only.
    uint64_t length_frequency[LENGTH_CODES] = {0};
    for (int k = 0; k < plan->literal_count; k++) length_frequency[plan->lengths[k]]++;
    length_frequency[1] += DISTANCE_CODES;
    at_least_two(length_frequency, LENGTH_CODES);
    huffman_lengths(length_frequency, LENGTH_CODES, LENGTH_CODE_LIMIT, plan->length_lengths);
    canonical_codes(plan->length_lengths, LENGTH_CODES, plan->length_codes);
    plan->length_code_count = LENGTH_CODES;
    while (plan->length_code_count > 4 && plan->length_lengths[length_order[plan->length_code_count - 1]] == 0)
        plan->length_code_count--;

    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)plan->length_code_count;
    for (int k = 0; k < plan->literal_count; k++) bits += plan->length_lengths[plan->lengths[k]];
    bits += DISTANCE_CODES * (uint64_t)plan->length_lengths[1];
    for (int k = 0; k < LITLEN_SYMBOLS; k++) bits += frequency[k] * plan->lengths[k];
    plan->bits = bits + extra_bits + matches;  // one bit of distance code per match
}

/// Writes the literals data[from, to), three (at most 45 bits) per flush.
static inline void put_literals(bit_writer *w, const block_plan *plan, const uint8_t *data, size_t from, size_t to) {
    const uint32_t *symbol = plan->packed;  // code | length << 16
    size_t i = from;
    for (; i + 3 <= to; i += 3) {
        uint32_t s0 = symbol[data[i]], s1 = symbol[data[i + 1]], s2 = symbol[data[i + 2]];
        w->bits |= (uint64_t)(s0 & 0xFFFF) << w->count;
        w->count += s0 >> 16;
        w->bits |= (uint64_t)(s1 & 0xFFFF) << w->count;
        w->count += s1 >> 16;
        w->bits |= (uint64_t)(s2 & 0xFFFF) << w->count;
        w->count += s2 >> 16;
        flush(w);
    }
    for (; i < to; i++) put_bits(w, symbol[data[i]] & 0xFFFF, symbol[data[i]] >> 16);
}

static void write_block(const scanner *s, const length_symbol *table, const block_plan *plan, bit_writer *w) {
    put_bits(w, 1, 1);  // the final block
    put_bits(w, 2, 2);  // dynamic Huffman codes
    put_bits(w, (uint32_t)(plan->literal_count - 257), 5);
    put_bits(w, DISTANCE_CODES - 1, 5);
    put_bits(w, (uint32_t)(plan->length_code_count - 4), 4);
    for (int k = 0; k < plan->length_code_count; k++) put_bits(w, plan->length_lengths[length_order[k]], 3);
    for (int k = 0; k < plan->literal_count + DISTANCE_CODES; k++) {
        int length = k < plan->literal_count ? plan->lengths[k] : 1;
        put_bits(w, plan->length_codes[length], plan->length_lengths[length]);
    }
    const uint8_t *data = s->data;
    size_t at = 0;
    for (;;) {
        size_t run_at = next_run(s, at);
        put_literals(w, plan, data, at, run_at);
        if (run_at == s->n) break;
        size_t run = run_length(s, run_at), rest = run - 1;
        put_literals(w, plan, data, run_at, run_at + 1);
        while (rest >= MATCH_MIN) {
            size_t length = rest < MATCH_MAX ? rest : MATCH_MAX;
            const length_symbol m = table[length];
            // Symbol, extra bits, then distance code 0 (one bit, 0): at most 21 bits.
            put_bits(w, plan->codes[m.symbol] | ((uint32_t)m.extra << plan->lengths[m.symbol]),
                     plan->lengths[m.symbol] + m.extra_bits + 1u);
            rest -= length;
        }
        put_literals(w, plan, data, run_at + run - rest, run_at + run);
        at = run_at + run;
    }
    put_bits(w, plan->codes[END_OF_BLOCK], plan->lengths[END_OF_BLOCK]);
    flush_all(w);
}

static size_t stored_size(size_t n) { return n + 5 * (n ? (n + STORED_MAX - 1) / STORED_MAX : 1); }

static uint8_t *write_stored(const uint8_t *data, size_t n, uint8_t *at) {
    size_t done = 0;
    do {
        size_t length = n - done < STORED_MAX ? n - done : STORED_MAX;
        at[0] = done + length == n;  // BFINAL on the last; BTYPE 00
        at[1] = (uint8_t)length; at[2] = (uint8_t)(length >> 8);
        at[3] = (uint8_t)~length; at[4] = (uint8_t)(~length >> 8);
        memcpy(at + 5, data + done, length);
        at += 5 + length;
        done += length;
    } while (done < n);
    return at;
}

// MARK: The file

int mh_png_encode_fast(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                       int reference, mh_buffer *out, mh_error *error) {
    if (!mh_png_start(pixels, width, height, stride, channels, 1, out, error)) return MH_ERR_USAGE;
    const size_t row_bytes = (size_t)width * (size_t)channels;
    const size_t filtered_size = (row_bytes + 1) * (size_t)height;
    uint8_t *filtered = malloc(filtered_size);
    uint8_t *scratch = malloc(row_bytes * 5);
    uint8_t *zeros = calloc(row_bytes, 1);
    length_symbol *table = malloc(sizeof(length_symbol) * (MATCH_MAX + 1));
    block_plan *plan = malloc(sizeof(block_plan));
    if (filtered == NULL || scratch == NULL || zeros == NULL || table == NULL || plan == NULL) {
        free(filtered); free(scratch); free(zeros); free(table); free(plan);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return MH_ERR_NOMEM;
    }
    const uint8_t *base = (const uint8_t *)pixels;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = base + (size_t)y * stride;
        uint8_t *dst = filtered + (size_t)y * (row_bytes + 1);
        if (reference) {
            dst[0] = (uint8_t)mh_png_filter_adaptive_row(row, y ? row - stride : NULL, row_bytes, channels, dst + 1,
                                                          scratch);
        } else {
            dst[0] = (uint8_t)filter_row_fast(row, y ? row - stride : zeros, row_bytes, channels, dst + 1, scratch);
        }
    }
    free(scratch);
    free(zeros);

    const scanner s = {filtered, filtered_size, reference};
    length_table(table);
    plan_block(&s, table, plan);
    const size_t dynamic = (size_t)((plan->bits + 7) / 8), stored = stored_size(filtered_size);
    const int store = stored <= dynamic;
    const size_t deflated = store ? stored : dynamic;
    const size_t total = MH_PNG_FRAME_BYTES + 2 + deflated + 4 + BIT_SLACK;
    uint8_t *png = malloc(total);
    if (png == NULL) {
        free(filtered); free(table); free(plan);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return MH_ERR_NOMEM;
    }
    const size_t at = mh_png_begin(png, width, height, channels);
    uint8_t *zlib = png + at + 8;
    zlib[0] = 0x78;  // deflate, 32 KiB window
    zlib[1] = 0x01;  // fastest; (0x78 << 8 | 0x01) is a multiple of 31
    uint8_t *end;
    if (store) {
        end = write_stored(filtered, filtered_size, zlib + 2);
    } else {
        bit_writer w = {zlib + 2, 0, 0};
        write_block(&s, table, plan, &w);
        end = w.at;
    }
    const uint32_t adler = libdeflate_adler32(1, filtered, filtered_size);
    free(filtered); free(table); free(plan);
    if ((size_t)(end - (zlib + 2)) != deflated) {  // the plan and the writer disagree: a bug, never a bad file
        free(png);
        mh_set_error(error, MH_ERR_USAGE, "PNG writer: block size differs from its plan");
        return MH_ERR_USAGE;
    }
    for (int k = 0; k < 4; k++) end[k] = (uint8_t)(adler >> (24 - 8 * k));
    out->data = png;
    out->size = mh_png_end(png, at, 2 + deflated + 4);
    out->capacity = total;
    return MH_OK;
}
