// libpng behind plain C calls. Each public function sets its own setjmp; the
// error callback copies libpng's message and jumps back to it.
#include "shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Where libpng's error callback leaves its message before jumping.
typedef struct png_failure {
    char message[200];
} png_failure;

static void png_error_to_jump(png_structp png, png_const_charp message) {
    png_failure *failure = (png_failure *)png_get_error_ptr(png);
    if (failure != NULL) {
        snprintf(failure->message, sizeof failure->message, "%s", message ? message : "libpng error");
    }
    png_longjmp(png, 1);
}

static void png_warning_ignored(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;  // ancillary-chunk problems (bad CRC in tEXt, say) do not stop a page
}

// MARK: Reading

typedef struct memory_source {
    const uint8_t *data;
    size_t size;
    size_t offset;
} memory_source;

struct mh_png_reader {
    png_structp png;
    png_infop info;
    memory_source source;
    png_failure failure;
    uint32_t height;
    size_t rowbytes;
    uint32_t rows_read;
};

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    memory_source *source = (memory_source *)png_get_io_ptr(png);
    if (source->size - source->offset < length) {
        png_error(png, "file is truncated");
    }
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

/// Walks the chunk headers of a PNG held in memory and fails on the first
/// chunk whose length runs past the end of the file. libpng allocates a
/// chunk's buffer from its declared length before reading it, so a few
/// hundred bytes claiming a 1.9 GB text chunk would otherwise cost 1.9 GB.
/// Opening walks only to the first IDAT (what reading the header needs, so
/// a page cut short in its pixels still has a header to plan with); reading
/// the pixels walks the whole file.
static int check_chunk_lengths(const uint8_t *data, size_t size, int stop_at_pixels, mh_error *error) {
    size_t offset = 8;
    while (size - offset >= 8) {
        const uint8_t *chunk = data + offset;
        if (stop_at_pixels && memcmp(chunk + 4, "IDAT", 4) == 0) break;
        uint32_t length = (uint32_t)chunk[0] << 24 | (uint32_t)chunk[1] << 16 | (uint32_t)chunk[2] << 8 | chunk[3];
        int named = 1;
        for (int i = 4; i < 8; i++) {
            uint8_t c = chunk[i];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) named = 0;
        }
        if ((uint64_t)length + 12 > size - offset) {
            char name[16] = "a";
            if (named) snprintf(name, sizeof name, "its %.4s", (const char *)chunk + 4);
            mh_set_errorf(error, MH_ERR_CORRUPT, "file is truncated: %s chunk claims %u bytes, %zu remain",
                          name, length, size - offset - 8);
            return MH_ERR_CORRUPT;
        }
        if (memcmp(chunk + 4, "IEND", 4) == 0) break;
        offset += 12 + (size_t)length;
    }
    return MH_OK;
}

static int message_code(const char *message) {
    // libpng does not classify its errors; these are the ones that mean
    // "valid, but not something libpng was built to read".
    if (strstr(message, "Unknown") != NULL || strstr(message, "unsupported") != NULL) {
        return MH_ERR_UNSUPPORTED;
    }
    if (strstr(message, "memory") != NULL) return MH_ERR_NOMEM;
    return MH_ERR_CORRUPT;
}

mh_png_reader *mh_png_open(const void *data, size_t size, mh_png_info *info, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (data == NULL || info == NULL) {
        mh_set_error(error, MH_ERR_USAGE, "no data");
        return NULL;
    }
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        mh_set_error(error, MH_ERR_CORRUPT, "not a PNG file (bad signature)");
        return NULL;
    }
    if (check_chunk_lengths((const uint8_t *)data, size, 1, error) != MH_OK) return NULL;
    mh_png_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    reader->source.data = (const uint8_t *)data;
    reader->source.size = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->failure,
                                         png_error_to_jump, png_warning_ignored);
    if (reader->png == NULL) {
        free(reader);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        png_destroy_read_struct(&reader->png, NULL, NULL);
        free(reader);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        mh_set_error(error, message_code(reader->failure.message), reader->failure.message);
        mh_png_close(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, &reader->source, read_from_memory);
    // Ancillary chunks are bounded so a hostile file cannot ask for gigabytes
    // of text or ICC data; pixel memory is bounded by the caller's max-pixels.
    png_set_chunk_malloc_max(reader->png, 16u * 1024u * 1024u);
    png_read_info(reader->png, reader->info);

    info->interlaced = png_get_interlace_type(reader->png, reader->info) != PNG_INTERLACE_NONE;
    png_charp icc_name = NULL;
    int icc_compression = 0;
    png_bytep icc = NULL;
    png_uint_32 icc_size = 0;
    if (png_get_iCCP(reader->png, reader->info, &icc_name, &icc_compression, &icc, &icc_size) && icc && icc_size) {
        info->icc = icc;
        info->icc_size = icc_size;
    }

    // Samples are taken as stored: no gamma, no background, no sBIT shifts.
    png_set_expand(reader->png);      // palette -> RGB, gray < 8 bits -> 8, tRNS -> alpha
    png_set_scale_16(reader->png);    // 16 -> 8 bits with rounding, (v * 255 + 32767) / 65535
    png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);

    info->width = png_get_image_width(reader->png, reader->info);
    info->height = png_get_image_height(reader->png, reader->info);
    info->channels = png_get_channels(reader->png, reader->info);
    reader->height = info->height;
    reader->rowbytes = png_get_rowbytes(reader->png, reader->info);
    if (png_get_bit_depth(reader->png, reader->info) != 8 || info->channels < 1 || info->channels > 4) {
        mh_set_error(error, MH_ERR_UNSUPPORTED, "unexpected sample layout after expansion");
        mh_png_close(reader);
        return NULL;
    }
    return reader;
}

int mh_png_read(mh_png_reader *reader, void *pixels, size_t stride, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (reader == NULL || pixels == NULL || stride < reader->rowbytes) {
        mh_set_error(error, MH_ERR_USAGE, "bad output buffer");
        return MH_ERR_USAGE;
    }
    if (check_chunk_lengths(reader->source.data, reader->source.size, 0, error) != MH_OK) return MH_ERR_CORRUPT;
    png_bytep *rows = malloc(sizeof(png_bytep) * (reader->height ? reader->height : 1));
    if (rows == NULL) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return MH_ERR_NOMEM;
    }
    for (uint32_t y = 0; y < reader->height; y++) {
        rows[y] = (png_bytep)pixels + (size_t)y * stride;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        free(rows);
        mh_set_error(error, message_code(reader->failure.message), reader->failure.message);
        return error ? error->code : MH_ERR_CORRUPT;
    }
    png_read_image(reader->png, rows);
    png_read_end(reader->png, NULL);
    free(rows);
    return MH_OK;
}

int mh_png_read_row(mh_png_reader *reader, void *row, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (reader == NULL || row == NULL || reader->rows_read >= reader->height ||
        png_get_interlace_type(reader->png, reader->info) != PNG_INTERLACE_NONE) {
        mh_set_error(error, MH_ERR_USAGE, "no more rows, or an interlaced image");
        return MH_ERR_USAGE;
    }
    if (reader->rows_read == 0 && check_chunk_lengths(reader->source.data, reader->source.size, 0, error) != MH_OK) {
        return MH_ERR_CORRUPT;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        mh_set_error(error, message_code(reader->failure.message), reader->failure.message);
        return error ? error->code : MH_ERR_CORRUPT;
    }
    png_read_row(reader->png, (png_bytep)row, NULL);
    reader->rows_read++;
    if (reader->rows_read == reader->height) png_read_end(reader->png, NULL);
    return MH_OK;
}

void mh_png_close(mh_png_reader *reader) {
    if (reader == NULL) return;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
}
