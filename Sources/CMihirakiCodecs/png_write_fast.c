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
#include "deflate_huffman.h"
#include "png_fast_rows.h"
#include "png_write.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif


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
    for (size_t at = mh_fast_next_run(s, 0); at < s->n;) {
        size_t run = mh_fast_run_length(s, at), rest = run - 1;
        while (rest >= MATCH_MIN) {
            size_t length = rest < MATCH_MAX ? rest : MATCH_MAX;
            frequency[table[length].symbol]++;
            frequency[0] -= length;
            extra_bits += table[length].extra_bits;
            matches++;
            rest -= length;
        }
        at = mh_fast_next_run(s, at + run);
    }
    frequency[END_OF_BLOCK] = 1;
    uint64_t weights[LITLEN_SYMBOLS];  // what the codes are built from; `frequency` stays what is written
    memcpy(weights, frequency, sizeof weights);
    mh_huffman_at_least_two(weights, LITLEN_SYMBOLS);
    mh_huffman_lengths(weights, LITLEN_SYMBOLS, CODE_LIMIT, plan->lengths);
    mh_huffman_canonical_codes(plan->lengths, LITLEN_SYMBOLS, plan->codes);
    for (int b = 0; b < 256; b++) plan->packed[b] = plan->codes[b] | (uint32_t)plan->lengths[b] << 16;
    plan->literal_count = LITLEN_SYMBOLS;
    while (plan->lengths[plan->literal_count - 1] == 0) plan->literal_count--;

    // The code lengths themselves, written with symbols 0–15 only.
    uint64_t length_frequency[LENGTH_CODES] = {0};
    for (int k = 0; k < plan->literal_count; k++) length_frequency[plan->lengths[k]]++;
    length_frequency[1] += DISTANCE_CODES;
    mh_huffman_at_least_two(length_frequency, LENGTH_CODES);
    mh_huffman_lengths(length_frequency, LENGTH_CODES, LENGTH_CODE_LIMIT, plan->length_lengths);
    mh_huffman_canonical_codes(plan->length_lengths, LENGTH_CODES, plan->length_codes);
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
        size_t run_at = mh_fast_next_run(s, at);
        put_literals(w, plan, data, at, run_at);
        if (run_at == s->n) break;
        size_t run = mh_fast_run_length(s, run_at), rest = run - 1;
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
            dst[0] = (uint8_t)mh_fast_filter_row(row, y ? row - stride : zeros, row_bytes, channels, dst + 1, scratch);
        }
    }
    free(scratch);
    free(zeros);

    const scanner s = {filtered, filtered_size, reference};
    mh_deflate_length_table(table);
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
