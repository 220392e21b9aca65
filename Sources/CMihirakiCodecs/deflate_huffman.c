// Deflate's Huffman codes for the fast PNG writer: see deflate_huffman.h.
#include "deflate_huffman.h"

#include <string.h>

/// Deflate's length symbols for match lengths 3…258.
void mh_deflate_length_table(length_symbol table[MATCH_MAX + 1]) {
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
void mh_huffman_lengths(const uint64_t *frequency, int count, int limit, uint8_t *lengths) {
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
void mh_huffman_at_least_two(uint64_t *frequency, int count) {
    int used = 0;
    for (int s = 0; s < count; s++) used += frequency[s] != 0;
    for (int s = 0; s < count && used < 2; s++)
        if (frequency[s] == 0) { frequency[s] = 1; used++; }
}

/// Deflate's canonical codes for `lengths`, bit-reversed for LSB-first output.
void mh_huffman_canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
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
