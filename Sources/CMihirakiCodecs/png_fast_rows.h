// Mihiraki's fast PNG writer, inside: its rows filtered and its runs of zero
// residuals found, each with SSE2 and a scalar twin (png_fast_rows.c), for
// the block writer (png_write_fast.c). Internal to CMihirakiCodecs.
#ifndef CMIHIRAKI_PNG_FAST_ROWS_H
#define CMIHIRAKI_PNG_FAST_ROWS_H

#include <stddef.h>
#include <stdint.h>

/// The filtered image a block is planned from, and which twin scans it.
typedef struct scanner {
    const uint8_t *data;
    size_t n;
    int reference;
} scanner;

/// The SSE2 twin of mh_png_filter_adaptive_row: every filter of the row at
/// once into `scratch` (five rows of `n`), then the cheapest copied to `out`.
/// `prior` is never NULL here: the first row's is a row of zeros.
int mh_fast_filter_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint8_t *out, uint8_t *scratch);

/// Where the next run of RUN_MIN or more zero residuals starts at or after `from`, or `s->n`.
size_t mh_fast_next_run(const scanner *s, size_t from);

/// How many zero residuals run from `at`.
size_t mh_fast_run_length(const scanner *s, size_t at);

#endif
