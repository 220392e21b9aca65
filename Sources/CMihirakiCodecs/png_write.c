// Mihiraki's own PNG writer: rows filtered here, the whole image deflated in
// one call by libdeflate (several times faster than zlib at the same size),
// chunks written by hand. Output is a plain, standard PNG: 8-bit, one IDAT,
// no ancillary chunks, so it is byte-identical for identical input.
#include "png_write.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every predictor reads original pixels only, so each loop is independent
// per byte.
void mh_png_filter_row(int type, const uint8_t *restrict row, const uint8_t *restrict prior, size_t n, int bpp,
                       uint8_t *restrict out) {
    size_t lead = (size_t)bpp < n ? (size_t)bpp : n;
    switch (type) {
    case MH_PNG_FILTER_SUB:
        memcpy(out, row, lead);
        for (size_t i = lead; i < n; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
        break;
    case MH_PNG_FILTER_UP:
        if (prior == NULL) { memcpy(out, row, n); break; }
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(row[i] - prior[i]);
        break;
    case MH_PNG_FILTER_AVERAGE:
        if (prior == NULL) {
            memcpy(out, row, lead);
            for (size_t i = lead; i < n; i++) out[i] = (uint8_t)(row[i] - (row[i - bpp] >> 1));
            break;
        }
        for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(row[i] - (prior[i] >> 1));
        for (size_t i = lead; i < n; i++) out[i] = (uint8_t)(row[i] - ((row[i - bpp] + prior[i]) >> 1));
        break;
    case MH_PNG_FILTER_PAETH:
        if (prior == NULL) {  // Paeth with no row above is Sub
            memcpy(out, row, lead);
            for (size_t i = lead; i < n; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
            break;
        }
        for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(row[i] - prior[i]);
        for (size_t i = lead; i < n; i++) {
            out[i] = (uint8_t)(row[i] - mh_png_paeth(row[i - bpp], prior[i], prior[i - bpp]));
        }
        break;
    default:
        memcpy(out, row, n);
        break;
    }
}

unsigned long mh_png_residual_cost(const uint8_t *residuals, size_t n) {
    unsigned long cost = 0;
    for (size_t i = 0; i < n; i++) {
        int8_t r = (int8_t)residuals[i];
        cost += (unsigned long)(r < 0 ? -r : r);
    }
    return cost;
}

/// The one filter for the whole image that deflates a sample of rows
/// smallest: screentone and noise often do best unfiltered, gradients with
/// Sub or Up. About 1/32 of the rows are tried with each filter, so this
/// costs a fraction of the real compression. `scratch` must hold the image.
static mh_png_filter choose_filter(const uint8_t *base, uint32_t width, uint32_t height, size_t stride, int channels,
                         struct libdeflate_compressor *compressor, uint8_t *scratch) {
    const size_t row_bytes = (size_t)width * (size_t)channels;
    const uint32_t step = height > 96 ? height / 24 : 1;
    const uint32_t run = step > 1 ? 2 : 1;  // two consecutive rows per sample keep Up meaningful
    size_t sample_size = 0;
    for (uint32_t y = 0; y < height; y += step) sample_size += (size_t)(y + run <= height ? run : height - y) * row_bytes;
    size_t bound = libdeflate_zlib_compress_bound(compressor, sample_size);
    uint8_t *sink = malloc(bound);
    if (sink == NULL) return MH_PNG_FILTER_NONE;
    mh_png_filter best = MH_PNG_FILTER_NONE;
    size_t best_size = (size_t)-1;
    // Average rarely wins where the others lose, and costs a full trial.
    static const mh_png_filter candidates[4] = {MH_PNG_FILTER_NONE, MH_PNG_FILTER_SUB, MH_PNG_FILTER_UP, MH_PNG_FILTER_PAETH};
    for (int k = 0; k < 4; k++) {
        const mh_png_filter type = candidates[k];
        size_t at = 0;
        for (uint32_t y = 0; y < height; y += step) {
            for (uint32_t k = 0; k < run && y + k < height; k++) {
                const uint8_t *row = base + (size_t)(y + k) * stride;
                const uint8_t *prior = y + k ? row - stride : NULL;
                mh_png_filter_row(type, row, prior, row_bytes, channels, scratch + at);
                at += row_bytes;
            }
        }
        size_t size = libdeflate_zlib_compress(compressor, scratch, at, sink, bound);
        if (size != 0 && size < best_size) { best_size = size; best = type; }
    }
    free(sink);
    return best;
}

int mh_png_filter_adaptive_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint8_t *out,
                               uint8_t *trial) {
    int best_type = MH_PNG_FILTER_NONE;
    mh_png_filter_row(MH_PNG_FILTER_NONE, row, prior, n, bpp, out);
    unsigned long best_cost = mh_png_residual_cost(out, n);
    for (int type = MH_PNG_FILTER_SUB; type <= MH_PNG_FILTER_PAETH; type++) {
        mh_png_filter_row(type, row, prior, n, bpp, trial);
        unsigned long cost = mh_png_residual_cost(trial, n);
        if (cost < best_cost) {
            best_cost = cost;
            best_type = type;
            memcpy(out, trial, n);
        }
    }
    return best_type;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/// Writes a chunk's length, type and CRC around `length` bytes already at `dst + 8`.
static size_t frame_chunk(uint8_t *dst, const char *type, size_t length) {
    put32(dst, (uint32_t)length);
    memcpy(dst + 4, type, 4);
    uint32_t crc = libdeflate_crc32(0, dst + 4, length + 4);
    put32(dst + 8 + length, crc);
    return length + 12;
}

int mh_png_start(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int settings_valid,
                 mh_buffer *out, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (pixels == NULL || out == NULL || channels < 1 || channels > 4 || width == 0 || height == 0 ||
        stride < (size_t)width * (size_t)channels || width > 0x7FFFFFFF || height > 0x7FFFFFFF || !settings_valid) {
        mh_set_error(error, MH_ERR_USAGE, "invalid image for PNG encoding");
        return 0;
    }
    out->data = NULL;
    out->size = out->capacity = 0;
    return 1;
}

size_t mh_png_begin(uint8_t *png, uint32_t width, uint32_t height, int channels) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    static const uint8_t color_types[5] = {0, 0, 4, 2, 6};
    memcpy(png, signature, 8);
    uint8_t *ihdr = png + 16;
    put32(ihdr, width);
    put32(ihdr + 4, height);
    ihdr[8] = 8;
    ihdr[9] = color_types[channels];
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    return 8 + frame_chunk(png + 8, "IHDR", 13);
}

size_t mh_png_end(uint8_t *png, size_t at, size_t length) {
    at += frame_chunk(png + at, "IDAT", length);
    return at + frame_chunk(png + at, "IEND", 0);
}

int mh_png_encode_deflate(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                          int level, mh_png_filter filter, mh_buffer *out, mh_error *error) {
    if (!mh_png_start(pixels, width, height, stride, channels, level >= 0 && level <= 12 &&
                      filter >= MH_PNG_FILTER_NONE && filter <= MH_PNG_FILTER_SAMPLED, out, error))
        return MH_ERR_USAGE;
    const size_t row_bytes = (size_t)width * (size_t)channels;
    const size_t filtered_size = (row_bytes + 1) * (size_t)height;
    uint8_t *filtered = malloc(filtered_size);
    uint8_t *trial = filter == MH_PNG_FILTER_ADAPTIVE ? malloc(row_bytes) : NULL;
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    if (filtered == NULL || (filter == MH_PNG_FILTER_ADAPTIVE && trial == NULL) || compressor == NULL) {
        free(filtered); free(trial);
        if (compressor) libdeflate_free_compressor(compressor);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return MH_ERR_NOMEM;
    }
    const uint8_t *base = (const uint8_t *)pixels;
    if (filter == MH_PNG_FILTER_SAMPLED) filter = choose_filter(base, width, height, stride, channels, compressor, filtered);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = base + (size_t)y * stride;
        const uint8_t *prior = y ? base + (size_t)(y - 1) * stride : NULL;
        uint8_t *dst = filtered + (size_t)y * (row_bytes + 1);
        if (filter != MH_PNG_FILTER_ADAPTIVE) {
            dst[0] = (uint8_t)filter;
            mh_png_filter_row(filter, row, prior, row_bytes, channels, dst + 1);
            continue;
        }
        dst[0] = (uint8_t)mh_png_filter_adaptive_row(row, prior, row_bytes, channels, dst + 1, trial);
    }
    free(trial);

    size_t bound = libdeflate_zlib_compress_bound(compressor, filtered_size);
    size_t total = MH_PNG_FRAME_BYTES + bound;
    uint8_t *png = malloc(total);
    if (png == NULL) {
        free(filtered);
        libdeflate_free_compressor(compressor);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return MH_ERR_NOMEM;
    }
    size_t at = mh_png_begin(png, width, height, channels);
    // Deflate straight into the IDAT chunk's data area.
    size_t compressed = libdeflate_zlib_compress(compressor, filtered, filtered_size, png + at + 8, bound);
    free(filtered);
    libdeflate_free_compressor(compressor);
    if (compressed == 0) {
        free(png);
        mh_set_error(error, MH_ERR_NOMEM, "deflate output did not fit its bound");
        return MH_ERR_NOMEM;
    }
    at = mh_png_end(png, at, compressed);
    out->data = png;
    out->size = at;
    out->capacity = total;
    return MH_OK;
}
