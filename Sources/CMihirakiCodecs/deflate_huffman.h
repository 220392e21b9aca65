// Deflate's Huffman codes as Mihiraki's fast PNG writer builds them: for one
// image, from its own symbol counts. Internal to CMihirakiCodecs.
#ifndef CMIHIRAKI_DEFLATE_HUFFMAN_H
#define CMIHIRAKI_DEFLATE_HUFFMAN_H

#include <stdint.h>

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

typedef struct length_symbol {
    uint16_t symbol;  // 257…285
    uint8_t extra_bits;
    uint16_t extra;
} length_symbol;

/// Deflate's length symbols for match lengths 3…258.
void mh_deflate_length_table(length_symbol table[MATCH_MAX + 1]);

/// Code lengths of at most `limit` bits from frequencies (0 for an unused
/// symbol), by Huffman's construction; if the tree is too deep, the
/// frequencies are halved and it is built again. Ties take the lower symbol
/// first, so the result depends on the frequencies alone. At least two
/// symbols must be used, which keeps every code complete.
void mh_huffman_lengths(const uint64_t *frequency, int count, int limit, uint8_t *lengths);

/// Makes sure at least two symbols are used (the first unused ones get a count of 1).
void mh_huffman_at_least_two(uint64_t *frequency, int count);

/// Deflate's canonical codes for `lengths`, bit-reversed for LSB-first output.
void mh_huffman_canonical_codes(const uint8_t *lengths, int count, uint16_t *codes);

#endif
