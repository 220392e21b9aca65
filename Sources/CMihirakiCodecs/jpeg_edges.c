// Edges of a JPEG page read from its DCT coefficients (--pairing auto):
// the columns nearest each side of the page summed exactly, without a
// full inverse DCT. Shares the reader of jpeg_read.c.
#include "jpeg_reader.h"

#include <CMihirakiKernels.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>

static jvirt_barray_ptr remember_array(j_common_ptr cinfo, int pool, boolean zero, JDIMENSION blocks_per_row,
                                       JDIMENSION rows, JDIMENSION max_access) {
    mh_jpeg_reader *reader = (mh_jpeg_reader *)cinfo;
    jvirt_barray_ptr array = reader->request_virt_barray(cinfo, pool, zero, blocks_per_row, rows, max_access);
    if (reader->array_count < MAX_COMPONENTS) reader->arrays[reader->array_count] = array;
    reader->array_count++;
    return array;
}

/// Adds, for each of the 8 rows of a block, the sum over the columns
/// [first, end) of the block (0–7) of its inverse DCT, × 2^24.
static void add_block_columns(const JCOEF *block, const UINT16 *quant, int first, int end, int64_t sums[8]) {
    int64_t across[8];  // Σ_x T[x][u], for each u
    for (int u = 0; u < 8; u++) {
        across[u] = 0;
        for (int x = first; x < end; x++) across[u] += mh_idct_basis[x][u];
    }
    int64_t rows[8];  // Σ_u across[u]·F(u,v), for each v
    for (int v = 0; v < 8; v++) {
        rows[v] = 0;
        for (int u = 0; u < 8; u++) rows[v] += across[u] * ((int64_t)block[v * 8 + u] * quant[v * 8 + u]);
    }
    for (int y = 0; y < 8; y++) {
        int64_t sum = 0;
        for (int v = 0; v < 8; v++) sum += mh_idct_basis[y][v] * rows[v];
        sums[y] += sum;
    }
}

/// The exact inverse DCT of a block, × 2^24, every row and column
/// (mh_idct_exact): the same sums as add_block_columns over one column, for
/// all eight at once.
static void block_pixels(const JCOEF *block, const UINT16 *quant, int64_t pixels[8][8]) {
    int32_t coefficients[64];  // |F·Q| < 2^31: a JCOEF is 16 bits, a quantizer 16 unsigned
    for (int i = 0; i < 64; i++) coefficients[i] = (int32_t)block[i] * (int32_t)quant[i];
    mh_idct_exact(coefficients, &pixels[0][0]);
}

/// A sample's highest level, in 1/256: the edges hold only levels the
/// page's own Y, Cb and Cr samples can (0–255 each, as libjpeg clamps them
/// when it decodes). A file's coefficients times its quantization can stand
/// for levels far past those (16-bit tables reach 65,535 a place); held to
/// them, such a file's edges are what its decoded samples show, and no sum
/// of them leaves the integers pairing adds them in.
#define SAMPLE_MAX ((int64_t)255 * 256)
/// The most a run of a block's columns adds before it is weighed, × 2^24:
/// 2^44 is 2^20 levels over the run, far past what a real block's 8
/// columns hold (2^11), and under it no sum overflows 64 bits: an edge as
/// wide as the widest JPEG is 2^13 runs, each weighed by a subsampling of
/// at most 4.
#define PART_LIMIT ((int64_t)1 << 44)

static inline int64_t clamp64(int64_t value, int64_t low, int64_t high) {
    return value < low ? low : value > high ? high : value;
}

int mh_jpeg_edges(mh_jpeg_reader *reader, uint32_t depth, int32_t *left, int32_t *right, int32_t *chroma,
                  int *has_chroma, uint32_t strip_depth, int32_t *strips, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (reader == NULL || reader->started || left == NULL || right == NULL || depth == 0) {
        mh_set_error(error, MH_ERR_USAGE, "edges before the first row");
        return MH_ERR_USAGE;
    }
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    jpeg_component_info *luma = &cinfo->comp_info[0];
    if ((cinfo->jpeg_color_space != JCS_GRAYSCALE && cinfo->jpeg_color_space != JCS_YCbCr) ||
        cinfo->data_precision != 8 || luma->h_samp_factor != cinfo->max_h_samp_factor ||
        luma->v_samp_factor != cinfo->max_v_samp_factor || depth > cinfo->image_width ||
        (strips != NULL && 2 * (uint64_t)strip_depth > cinfo->image_width)) {
        mh_set_error(error, MH_ERR_UNSUPPORTED, "no luma coefficients at full resolution");
        return MH_ERR_UNSUPPORTED;
    }
    // At 1/8 scale libjpeg keeps only the DC coefficients: the edges would be block means.
    if (cinfo->scale_num * 8 <= cinfo->scale_denom) {
        mh_set_error(error, MH_ERR_UNSUPPORTED, "only DC coefficients at 1/8 scale");
        return MH_ERR_UNSUPPORTED;
    }
    // Chroma at whole subsampling ratios; other YCbCr pages give luma alone.
    int colour = cinfo->jpeg_color_space == JCS_YCbCr && cinfo->num_components == 3 && chroma != NULL;
    for (int c = 1; colour && c < 3; c++) {
        jpeg_component_info *comp = &cinfo->comp_info[c];
        if (cinfo->max_h_samp_factor % comp->h_samp_factor != 0 || cinfo->max_v_samp_factor % comp->v_samp_factor != 0) colour = 0;
    }
    if (has_chroma) *has_chroma = colour;
    if (setjmp(reader->errors.jump)) {
        mh_set_error(error, mh_jpeg_classify(&reader->errors), reader->errors.message);
        return error ? error->code : MH_ERR_CORRUPT;
    }
    reader->started = 1;
    reader->buffered = 1;
    cinfo->buffered_image = TRUE;
    reader->request_virt_barray = cinfo->mem->request_virt_barray;
    cinfo->mem->request_virt_barray = remember_array;
    jpeg_start_decompress(cinfo);
    cinfo->mem->request_virt_barray = reader->request_virt_barray;
    for (;;) {
        int status = jpeg_consume_input(cinfo);
        if (status == JPEG_REACHED_EOI) break;
        if (status == JPEG_SUSPENDED) ERREXIT(cinfo, JERR_INPUT_EOF);  // cannot happen with an in-memory source
        mh_jpeg_check_scan_count((j_common_ptr)cinfo);
    }
    if (reader->array_count != cinfo->num_components || luma->quant_table == NULL) {
        mh_set_error(error, MH_ERR_CORRUPT, "coefficients not kept");
        return MH_ERR_CORRUPT;
    }
    uint32_t height = cinfo->image_height;
    // Luma into left and right; Cb and Cr into chroma's four planes of `height` rows
    // (Cb left, Cb right, Cr left, Cr right).
    for (int c = 0; c < (colour ? 3 : 1); c++) {
        jpeg_component_info *comp = &cinfo->comp_info[c];
        if (comp->quant_table == NULL) {
            mh_set_error(error, MH_ERR_CORRUPT, "coefficients not kept");
            return MH_ERR_CORRUPT;
        }
        const UINT16 *quant = comp->quant_table->quantval;
        // This component's columns and rows per luma one's, and its width in its own samples
        // from the stored size (downsampled_width follows a scaled decode).
        uint32_t across = (uint32_t)(cinfo->max_h_samp_factor / comp->h_samp_factor);
        uint32_t down = (uint32_t)(cinfo->max_v_samp_factor / comp->v_samp_factor);
        uint32_t width = (uint32_t)((cinfo->image_width * (uint64_t)comp->h_samp_factor + cinfo->max_h_samp_factor - 1) /
                                    cinfo->max_h_samp_factor);
        // The level shift: each of the `depth` samples is 128 more than its IDCT.
        int64_t shift = (int64_t)128 * depth * 256;
        for (JDIMENSION block_row = 0; block_row < comp->height_in_blocks; block_row++) {
            JBLOCKARRAY blocks = cinfo->mem->access_virt_barray((j_common_ptr)cinfo, reader->arrays[c], block_row, 1, FALSE);
            for (int side = 0; side < 2; side++) {
                // The luma columns [from, to) next to this edge, and this component's columns over them.
                uint32_t from = side == 0 ? 0 : cinfo->image_width - depth, to = from + depth;
                uint32_t first = from / across, end = (to + across - 1) / across;
                if (end > width) end = width;
                int64_t sums[8] = {0};
                for (uint32_t x = first; x < end;) {
                    // A run of columns in one block that each stand for as many of the luma's.
                    uint32_t lo = x * across > from ? x * across : from, hi = (x + 1) * across < to ? (x + 1) * across : to;
                    uint32_t weight = hi - lo, run_end = x + 1;
                    while (run_end < end && run_end % 8 != 0) {
                        uint32_t next_lo = run_end * across, next_hi = (run_end + 1) * across < to ? (run_end + 1) * across : to;
                        if (next_hi - next_lo != weight) break;
                        run_end++;
                    }
                    int64_t part[8] = {0};
                    add_block_columns(blocks[0][x / 8], quant, (int)(x % 8), (int)(run_end - (x / 8) * 8), part);
                    for (int y = 0; y < 8; y++) sums[y] += clamp64(part[y], -PART_LIMIT, PART_LIMIT) * weight;
                    x = run_end;
                }
                // Luma's strip: each of the strip_depth columns next to this edge on its own.
                for (uint32_t k = 0; c == 0 && strips != NULL && k < strip_depth;) {
                    uint32_t x = side == 0 ? k : cinfo->image_width - 1 - k;
                    // The run of the strip's columns inside this block, in the strip's order.
                    uint32_t run = side == 0 ? 8 - x % 8 : x % 8 + 1;
                    if (run > strip_depth - k) run = strip_depth - k;
                    int64_t pixels[8][8];
                    block_pixels(blocks[0][x / 8], quant, pixels);
                    int32_t *strip = strips + (size_t)side * height * strip_depth;
                    for (uint32_t j = 0; j < run; j++) {
                        uint32_t column = side == 0 ? x % 8 + j : x % 8 - j;
                        for (uint32_t y = 0; y < 8 && block_row * 8 + y < height; y++)
                            strip[(size_t)(block_row * 8 + y) * strip_depth + k + j] = (int32_t)clamp64(
                                ((pixels[y][column] + ((int64_t)1 << 15)) >> 16) + (int64_t)128 * 256, 0, SAMPLE_MAX);
                    }
                    k += run;
                }
                int32_t *out = c == 0 ? (side == 0 ? left : right) : chroma + (size_t)(2 * (c - 1) + side) * height;
                for (uint32_t y = 0; y < 8; y++) {
                    // × 2^24 to 1/256 levels, rounded down (an arithmetic shift, the same
                    // everywhere); a subsampled sample stands for `down` rows.
                    int32_t value = (int32_t)clamp64(((sums[y] + ((int64_t)1 << 15)) >> 16) + shift, 0,
                                                     (int64_t)depth * SAMPLE_MAX);
                    for (uint32_t k = 0; k < down; k++) {
                        uint32_t row = (block_row * 8 + y) * down + k;
                        if (row < height) out[row] = value;
                    }
                }
            }
        }
    }
    return MH_OK;
}

