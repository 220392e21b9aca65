// A fast path for the PNGs Mihiraki itself writes (and most others): 8-bit,
// not interlaced, gray / gray+alpha / RGB / RGBA, no transparency chunk. The
// image data is inflated in one call by libdeflate, several times faster than
// zlib. Anything unusual — another layout, a damaged chunk, trailing data —
// is declined, and the caller decodes with libpng, which has the last word on
// every file and every error message.
#include "shim.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

typedef struct plain_png {
    uint32_t width, height;
    int channels;
    const uint8_t *idat;      // the image data when it is one chunk
    size_t idat_size;         // total bytes over all IDAT chunks
    int idat_chunks;
    int has_profile;          // an iCCP chunk before the image data (libpng reads it; this path does not)
} plain_png;

/// Walks the chunks; returns 1 when the file is a plain PNG this path reads.
static int scan(const uint8_t *data, size_t size, plain_png *png) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (size < 8 + 25 + 12 || memcmp(data, signature, 8) != 0) return 0;
    size_t at = 8;
    int seen_ihdr = 0, seen_iend = 0, idat_done = 0;
    memset(png, 0, sizeof *png);
    while (at + 12 <= size && !seen_iend) {
        uint32_t length = get32(data + at);
        const uint8_t *type = data + at + 4;
        if (length > 0x7FFFFFFF || length > size - at - 12) return 0;
        const uint8_t *body = data + at + 8;
        uint32_t crc = get32(body + length);
        int critical = !(type[0] & 0x20);
        if (critical && libdeflate_crc32(0, type, length + 4) != crc) return 0;
        if (memcmp(type, "IHDR", 4) == 0) {
            if (seen_ihdr || at != 8 || length != 13) return 0;
            png->width = get32(body);
            png->height = get32(body + 4);
            static const int channels_by_type[7] = {1, 0, 3, 0, 2, 0, 4};
            if (body[8] != 8 || body[9] > 6 || channels_by_type[body[9]] == 0 || body[10] || body[11] || body[12]) {
                return 0;
            }
            if (png->width == 0 || png->height == 0 || png->width > 0x7FFFFFFF || png->height > 0x7FFFFFFF) return 0;
            png->channels = channels_by_type[body[9]];
            seen_ihdr = 1;
        } else if (!seen_ihdr) {
            return 0;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            if (idat_done) return 0;
            if (png->idat_chunks++ == 0) png->idat = body;
            png->idat_size += length;
        } else {
            if (png->idat_chunks) idat_done = 1;
            if (memcmp(type, "iCCP", 4) == 0 && png->idat_chunks == 0) png->has_profile = 1;
            if (memcmp(type, "IEND", 4) == 0) {
                seen_iend = 1;
            } else if (memcmp(type, "tRNS", 4) == 0 || (critical && memcmp(type, "PLTE", 4) != 0)) {
                return 0;  // transparency key or a critical chunk this path does not know
            }
        }
        at += (size_t)length + 12;
    }
    return seen_ihdr && seen_iend && png->idat_chunks > 0;
}

int mh_png_plain_probe(const void *data, size_t size, uint32_t *width, uint32_t *height, int *channels,
                       int *has_profile) {
    plain_png png;
    if (data == NULL || !scan((const uint8_t *)data, size, &png)) return MH_ERR_UNSUPPORTED;
    *width = png.width;
    *height = png.height;
    *channels = png.channels;
    *has_profile = png.has_profile;
    return MH_OK;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/// Sub, Average and Paeth for 3- and 4-byte pixels, a whole pixel per step
/// (these filters are serial by pixel, not by byte). Loads read 4 bytes, so
/// `line` and `prior` need one byte of slack; stores write exactly `bpp`.
static void unfilter_pixels(int type, const uint8_t *line, const uint8_t *prior, uint8_t *row, size_t width,
                            size_t bpp) {
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi16(1), low = _mm_set1_epi16(0xFF);
    __m128i a = zero, c = zero;  // left and upper-left pixels, widened to 16 bits
    for (size_t x = 0; x < width; x++) {
        uint32_t raw32, up32 = 0;
        memcpy(&raw32, line + x * bpp, 4);
        if (prior) memcpy(&up32, prior + x * bpp, 4);
        __m128i raw = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)raw32), zero);
        __m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)up32), zero);
        __m128i predicted;
        if (type == MH_PNG_FILTER_SUB) {
            predicted = a;
        } else if (type == MH_PNG_FILTER_AVERAGE) {
            predicted = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
        } else {
            // pa = |b − c|, pb = |a − c|, pc = |a + b − 2c|: a if pa ≤ pb and pa ≤ pc, else b if pb ≤ pc, else c.
            __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
            __m128i pc = _mm_add_epi16(pa, pb);
            pa = _mm_max_epi16(pa, _mm_sub_epi16(zero, pa));
            pb = _mm_max_epi16(pb, _mm_sub_epi16(zero, pb));
            pc = _mm_max_epi16(pc, _mm_sub_epi16(zero, pc));
            __m128i use_a = _mm_and_si128(_mm_cmplt_epi16(pa, _mm_add_epi16(pb, one)),
                                          _mm_cmplt_epi16(pa, _mm_add_epi16(pc, one)));
            __m128i use_b = _mm_cmplt_epi16(pb, _mm_add_epi16(pc, one));
            __m128i bc = _mm_or_si128(_mm_and_si128(use_b, b), _mm_andnot_si128(use_b, c));
            predicted = _mm_or_si128(_mm_and_si128(use_a, a), _mm_andnot_si128(use_a, bc));
        }
        a = _mm_and_si128(_mm_add_epi16(raw, predicted), low);
        c = b;
        uint32_t out = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(a, zero));
        if (bpp == 4) {
            memcpy(row + x * 4, &out, 4);
        } else {
            memcpy(row + x * 3, &out, 2);
            row[x * 3 + 2] = (uint8_t)(out >> 16);
        }
    }
}
#endif

static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c));
}

int mh_png_plain_decode(const void *data, size_t size, void *pixels, size_t stride) {
    plain_png png;
    const uint8_t *bytes = (const uint8_t *)data;
    if (data == NULL || pixels == NULL || !scan(bytes, size, &png)) return MH_ERR_UNSUPPORTED;
    const size_t bpp = (size_t)png.channels, row_bytes = (size_t)png.width * bpp;
    if (stride < row_bytes) return MH_ERR_USAGE;
    if (row_bytes > ((size_t)-1 >> 2) / png.height) return MH_ERR_UNSUPPORTED;
    const size_t filtered_size = (row_bytes + 1) * (size_t)png.height;
    uint8_t *filtered = malloc(filtered_size + 16);  // slack for 4-byte pixel loads
    uint8_t *joined = NULL;
    const uint8_t *stream = png.idat;
    if (filtered == NULL) return MH_ERR_NOMEM;
    if (png.idat_chunks > 1) {
        joined = malloc(png.idat_size);
        if (joined == NULL) { free(filtered); return MH_ERR_NOMEM; }
        size_t at = 8, filled = 0;
        while (at + 12 <= size) {
            uint32_t length = get32(bytes + at);
            if (memcmp(bytes + at + 4, "IDAT", 4) == 0) {
                memcpy(joined + filled, bytes + at + 8, length);
                filled += length;
            }
            at += (size_t)length + 12;
        }
        stream = joined;
    }
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    enum libdeflate_result result = inflater == NULL ? LIBDEFLATE_BAD_DATA
        : libdeflate_zlib_decompress(inflater, stream, png.idat_size, filtered, filtered_size, NULL);
    if (inflater) libdeflate_free_decompressor(inflater);
    free(joined);
    if (result != LIBDEFLATE_SUCCESS) {  // damaged, or not exactly the expected size: libpng decides
        free(filtered);
        return MH_ERR_UNSUPPORTED;
    }
    uint8_t *out = (uint8_t *)pixels;
    for (uint32_t y = 0; y < png.height; y++) {
        const uint8_t *src = filtered + (size_t)y * (row_bytes + 1);
        uint8_t *row = out + (size_t)y * stride;
        const uint8_t *prior = y ? row - stride : NULL;
        const uint8_t *line = src + 1;
#if defined(__SSE2__)
        // The 4-byte loads of 3-byte pixels read one byte past a row: for
        // `line` that is the next filter byte or the buffer's slack, for
        // `prior` the first byte of the current row.
        if ((bpp == 3 || bpp == 4) && (src[0] == MH_PNG_FILTER_SUB || src[0] == MH_PNG_FILTER_AVERAGE || src[0] == MH_PNG_FILTER_PAETH)) {
            unfilter_pixels(src[0], line, prior, row, png.width, bpp);
            continue;
        }
#endif
        switch (src[0]) {
        case MH_PNG_FILTER_NONE: memcpy(row, line, row_bytes); break;
        case MH_PNG_FILTER_SUB:
            for (size_t i = 0; i < row_bytes; i++) row[i] = (uint8_t)(line[i] + (i >= bpp ? row[i - bpp] : 0));
            break;
        case MH_PNG_FILTER_UP:
            for (size_t i = 0; i < row_bytes; i++) row[i] = (uint8_t)(line[i] + (prior ? prior[i] : 0));
            break;
        case MH_PNG_FILTER_AVERAGE:
            for (size_t i = 0; i < row_bytes; i++) {
                int a = i >= bpp ? row[i - bpp] : 0, b = prior ? prior[i] : 0;
                row[i] = (uint8_t)(line[i] + ((a + b) >> 1));
            }
            break;
        case MH_PNG_FILTER_PAETH:
            for (size_t i = 0; i < row_bytes; i++) {
                int a = i >= bpp ? row[i - bpp] : 0, b = prior ? prior[i] : 0;
                int c = (prior && i >= bpp) ? prior[i - bpp] : 0;
                row[i] = (uint8_t)(line[i] + paeth(a, b, c));
            }
            break;
        default:
            free(filtered);
            return MH_ERR_UNSUPPORTED;
        }
    }
    free(filtered);
    return MH_OK;
}
