// giflib behind plain C calls: the first frame of a GIF, composed on its
// logical screen as browsers show it (transparent outside the frame and at
// the transparent index), interlaced rows put in their places. giflib
// reports errors by return codes, never by jumping or exiting.
#include "shim.h"

#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

typedef struct memory_source {
    const uint8_t *data;
    size_t size;
    size_t at;
} memory_source;

struct mh_gif_reader {
    GifFileType *gif;
    memory_source source;
};

static int read_memory(GifFileType *gif, GifByteType *out, int length) {
    memory_source *source = (memory_source *)gif->UserData;
    size_t left = source->size - source->at;
    size_t n = length < 0 ? 0 : ((size_t)length < left ? (size_t)length : left);
    memcpy(out, source->data + source->at, n);
    source->at += n;
    return (int)n;
}

static void gif_error(mh_error *error, int code, const char *what) {
    const char *reason = GifErrorString(code);
    mh_set_errorf(error, code == D_GIF_ERR_NOT_ENOUGH_MEM ? MH_ERR_NOMEM : MH_ERR_CORRUPT, "%s: %s", what,
                  reason ? reason : "damaged GIF data");
}

mh_gif_reader *mh_gif_open(const void *data, size_t size, mh_gif_info *info, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    mh_gif_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    reader->source = (memory_source){(const uint8_t *)data, size, 0};
    int code = 0;
    reader->gif = DGifOpen(&reader->source, read_memory, &code);
    if (reader->gif == NULL) {
        gif_error(error, code, "not a readable GIF");
        free(reader);
        return NULL;
    }
    if (reader->gif->SWidth <= 0 || reader->gif->SHeight <= 0) {
        mh_set_error(error, MH_ERR_CORRUPT, "GIF logical screen has no pixels");
        mh_gif_close(reader);
        return NULL;
    }
    info->width = (uint32_t)reader->gif->SWidth;
    info->height = (uint32_t)reader->gif->SHeight;
    return reader;
}

/// Copies one line of palette indices into the RGBA screen.
static void put_line(const GifByteType *line, const GifImageDesc *desc, const ColorMapObject *colors,
                     int transparent, int row, uint8_t *pixels, size_t stride, uint32_t width, uint32_t height) {
    int y = desc->Top + row;
    if (y < 0 || (uint32_t)y >= height) return;
    uint8_t *out = pixels + (size_t)y * stride;
    for (int i = 0; i < desc->Width; i++) {
        int x = desc->Left + i;
        if (x < 0 || (uint32_t)x >= width) continue;
        int index = line[i];
        if (index == transparent || index >= colors->ColorCount) continue;
        GifColorType color = colors->Colors[index];
        uint8_t *p = out + (size_t)x * 4;
        p[0] = color.Red; p[1] = color.Green; p[2] = color.Blue; p[3] = 255;
    }
}

int mh_gif_read(mh_gif_reader *reader, void *pixels, size_t stride, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    GifFileType *gif = reader->gif;
    uint32_t width = (uint32_t)gif->SWidth, height = (uint32_t)gif->SHeight;
    for (uint32_t y = 0; y < height; y++) memset((uint8_t *)pixels + y * stride, 0, (size_t)width * 4);
    int transparent = -1;
    for (;;) {
        GifRecordType record;
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) {
            gif_error(error, gif->Error, "GIF data is damaged");
            return error ? error->code : MH_ERR_CORRUPT;
        }
        if (record == TERMINATE_RECORD_TYPE) {
            mh_set_error(error, MH_ERR_CORRUPT, "GIF holds no image");
            return MH_ERR_CORRUPT;
        }
        if (record == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
                gif_error(error, gif->Error, "GIF extension is damaged");
                return error ? error->code : MH_ERR_CORRUPT;
            }
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4 && (block[1] & 1)) {
                transparent = block[4];
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
                    gif_error(error, gif->Error, "GIF extension is damaged");
                    return error ? error->code : MH_ERR_CORRUPT;
                }
            }
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) {
            gif_error(error, gif->Error, "GIF image descriptor is damaged");
            return error ? error->code : MH_ERR_CORRUPT;
        }
        GifImageDesc *desc = &gif->Image;
        const ColorMapObject *colors = desc->ColorMap ? desc->ColorMap : gif->SColorMap;
        // A frame without any colour table takes index i as gray level i, as
        // Pillow reads it (GIF89a leaves the table to the decoder then).
        GifColorType ramp[256];
        ColorMapObject grays = { .ColorCount = 256, .BitsPerPixel = 8, .SortFlag = false, .Colors = ramp };
        if (colors == NULL) {
            for (int i = 0; i < 256; i++) ramp[i].Red = ramp[i].Green = ramp[i].Blue = (GifByteType)i;
            colors = &grays;
        }
        if (desc->Width <= 0 || desc->Height <= 0) {
            mh_set_error(error, MH_ERR_CORRUPT, "GIF frame has no pixels");
            return MH_ERR_CORRUPT;
        }
        GifByteType *line = malloc((size_t)desc->Width);
        if (line == NULL) {
            mh_set_error(error, MH_ERR_NOMEM, "out of memory");
            return MH_ERR_NOMEM;
        }
        // Interlaced frames store rows in four passes.
        static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
        int passes = desc->Interlace ? 4 : 1;
        for (int pass = 0; pass < passes; pass++) {
            int start = desc->Interlace ? starts[pass] : 0, step = desc->Interlace ? steps[pass] : 1;
            for (int row = start; row < desc->Height; row += step) {
                if (DGifGetLine(gif, line, desc->Width) == GIF_ERROR) {
                    free(line);
                    gif_error(error, gif->Error, "GIF image data is damaged or truncated");
                    return error ? error->code : MH_ERR_CORRUPT;
                }
                put_line(line, desc, colors, transparent, row, pixels, stride, width, height);
            }
        }
        free(line);
        return MH_OK;
    }
}

void mh_gif_close(mh_gif_reader *reader) {
    if (reader == NULL) return;
    int code = 0;
    if (reader->gif) DGifCloseFile(reader->gif, &code);
    free(reader);
}
