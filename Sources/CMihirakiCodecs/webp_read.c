// libwebp behind plain C calls: lossy, lossless, alpha; an animation gives
// its first frame, composed on its canvas. libwebp reports errors by status
// codes, never by jumping or exiting.
#include "shim.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

static int status_code(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return MH_ERR_NOMEM;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return MH_ERR_UNSUPPORTED;
    default: return MH_ERR_CORRUPT;
    }
}

static const char *status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_NOT_ENOUGH_DATA: return "WebP data is truncated";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "a WebP feature Mihiraki does not read";
    default: return "WebP data is damaged";
    }
}

int mh_webp_probe(const void *data, size_t size, mh_webp_info *info, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures((const uint8_t *)data, size, &features);
    if (status != VP8_STATUS_OK) {
        mh_set_error(error, status_code(status), status_text(status));
        return error ? error->code : MH_ERR_CORRUPT;
    }
    if (features.width <= 0 || features.height <= 0) {
        mh_set_error(error, MH_ERR_CORRUPT, "WebP image has no pixels");
        return MH_ERR_CORRUPT;
    }
    info->width = (uint32_t)features.width;
    info->height = (uint32_t)features.height;
    info->has_alpha = features.has_alpha != 0;
    info->animated = features.has_animation != 0;
    info->lossy = features.format == 1;
    // An ICC profile sits in an ICCP chunk of the extended format.
    WebPData webp = {(const uint8_t *)data, size};
    WebPDemuxer *demux = WebPDemux(&webp);
    if (demux != NULL) {
        WebPChunkIterator chunk;
        if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
            info->icc = chunk.chunk.bytes;
            info->icc_size = chunk.chunk.size;
            WebPDemuxReleaseChunkIterator(&chunk);
        }
        WebPDemuxDelete(demux);
    }
    return MH_OK;
}

/// The first frame of an animation, composed on the canvas (RGBA).
static int decode_first_frame(const void *data, size_t size, uint32_t width, uint32_t height, uint8_t *pixels,
                              size_t stride, mh_error *error) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        mh_set_error(error, MH_ERR_UNSUPPORTED, "libwebp version mismatch");
        return MH_ERR_UNSUPPORTED;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData webp = {(const uint8_t *)data, size};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&webp, &options);
    if (decoder == NULL) {
        mh_set_error(error, MH_ERR_CORRUPT, "animated WebP data is damaged");
        return MH_ERR_CORRUPT;
    }
    WebPAnimInfo anim;
    uint8_t *frame = NULL;
    int timestamp = 0;
    int status = MH_OK;
    if (!WebPAnimDecoderGetInfo(decoder, &anim) || anim.canvas_width != width || anim.canvas_height != height) {
        mh_set_error(error, MH_ERR_CORRUPT, "animated WebP canvas does not match its header");
        status = MH_ERR_CORRUPT;
    } else if (!WebPAnimDecoderGetNext(decoder, &frame, &timestamp) || frame == NULL) {
        mh_set_error(error, MH_ERR_CORRUPT, "the first frame of the animated WebP is damaged");
        status = MH_ERR_CORRUPT;
    } else {
        for (uint32_t y = 0; y < height; y++) memcpy(pixels + y * stride, frame + (size_t)y * width * 4, (size_t)width * 4);
    }
    WebPAnimDecoderDelete(decoder);
    return status;
}

int mh_webp_decode(const void *data, size_t size, const mh_webp_info *info, void *pixels, size_t stride,
                   mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (info->animated) {
        return decode_first_frame(data, size, info->width, info->height, pixels, stride, error);
    }
    size_t total = stride * info->height;
    uint8_t *done = info->has_alpha
        ? WebPDecodeRGBAInto((const uint8_t *)data, size, pixels, total, (int)stride)
        : WebPDecodeRGBInto((const uint8_t *)data, size, pixels, total, (int)stride);
    if (done == NULL) {
        // Ask again for the reason: a cut-off file and damaged data read differently.
        WebPDecoderConfig config;
        VP8StatusCode status = VP8_STATUS_BITSTREAM_ERROR;
        if (WebPInitDecoderConfig(&config)) {
            config.output.colorspace = info->has_alpha ? MODE_RGBA : MODE_RGB;
            status = WebPDecode((const uint8_t *)data, size, &config);
            WebPFreeDecBuffer(&config.output);
            if (status == VP8_STATUS_OK) status = VP8_STATUS_BITSTREAM_ERROR;
        }
        mh_set_error(error, status_code(status), status_text(status));
        return error ? error->code : MH_ERR_CORRUPT;
    }
    return MH_OK;
}

// MARK: Gray pages

struct mh_webp_gray {
    WebPIDecoder *decoder;
    uint8_t *planes;  // luma, then U and V
    size_t planes_size;
    const uint8_t *luma;
    int width, stride;
    uint8_t gray[256];  // luma to gray
};

/// libwebp's YUV to red (and blue) with neutral chroma, in its own 14-bit
/// fixed point: ((y * 19077) >> 8) + ((128 * 26149) >> 8) - 14234, clipped,
/// then >> 6.
static uint8_t gray_of_luma(int y) {
    int value = ((y * 19077) >> 8) + ((128 * 26149) >> 8) - 14234;
    if ((value & ~16383) == 0) return (uint8_t)(value >> 6);
    return value < 0 ? 0 : 255;
}

static int neutral(const uint8_t *samples, int count) {
    for (int i = 0; i < count; i++)
        if (samples[i] != 128) return 0;
    return 1;
}

mh_webp_gray *mh_webp_gray_open(const void *data, size_t size, int *colour, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    *colour = 0;
    WebPBitstreamFeatures features;
    VP8StatusCode probed = WebPGetFeatures((const uint8_t *)data, size, &features);
    if (probed != VP8_STATUS_OK) {
        mh_set_error(error, status_code(probed), status_text(probed));
        return NULL;
    }
    // The planes are Mihiraki's: left to itself, libwebp would add an alpha
    // plane (MODE_YUVA) that an opaque page never uses. They are mapped for
    // the page and unmapped after it, so they never stay behind in the heap
    // between pages (the benchmark's WebP book: 68 MiB peak instead of 72-81).
    const size_t width = (size_t)features.width, height = (size_t)features.height;
    const size_t half_width = (width + 1) / 2, half_height = (height + 1) / 2;
    const size_t luma_size = width * height, chroma_size = half_width * half_height;
    // Whatever is made here is owned by the reader at once, so every way
    // out below releases it through mh_webp_gray_close.
    mh_webp_gray *reader = calloc(1, sizeof(mh_webp_gray));
    if (reader != NULL) {
        uint8_t *planes = mmap(NULL, luma_size + 2 * chroma_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (planes != MAP_FAILED) {
            reader->planes = planes;
            reader->planes_size = luma_size + 2 * chroma_size;
            reader->decoder = WebPINewYUVA(planes, luma_size, (int)width, planes + luma_size, chroma_size, (int)half_width,
                                           planes + luma_size + chroma_size, chroma_size, (int)half_width, NULL, 0, 0);
        }
    }
    if (reader == NULL || reader->decoder == NULL) {
        mh_webp_gray_close(reader);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    // 64 KiB at a time: a colour page shows its colour within its first
    // rows, and is then handed back for an RGB decode without decoding the rest.
    const size_t piece = 64 << 10;
    int checked = 0;  // chroma rows found neutral
    size_t given = 0;
    VP8StatusCode status;
    do {
        given = size - given > piece ? given + piece : size;
        status = WebPIUpdate(reader->decoder, (const uint8_t *)data, given);
        int rows = 0, width = 0, height = 0, stride = 0, uv_stride = 0;
        uint8_t *u = NULL, *v = NULL;
        const uint8_t *y = WebPIDecGetYUVA(reader->decoder, &rows, &u, &v, NULL, &width, &height, &stride, &uv_stride, NULL);
        if (y != NULL) {
            // Chroma row k serves luma rows 2k and 2k+1: complete once both are.
            const int done = rows >= height ? (height + 1) / 2 : rows / 2, half = (width + 1) / 2;
            for (; checked < done; checked++) {
                if (!neutral(u + (size_t)checked * uv_stride, half) || !neutral(v + (size_t)checked * uv_stride, half)) {
                    *colour = 1;
                    mh_webp_gray_close(reader);
                    return NULL;
                }
            }
            reader->luma = y;
            reader->width = width;
            reader->stride = stride;
        }
    } while (status == VP8_STATUS_SUSPENDED && given < size);
    if (status != VP8_STATUS_OK || reader->luma == NULL) {
        if (status == VP8_STATUS_SUSPENDED || status == VP8_STATUS_OK) status = VP8_STATUS_NOT_ENOUGH_DATA;
        mh_set_error(error, status_code(status), status_text(status));
        mh_webp_gray_close(reader);
        return NULL;
    }
    for (int k = 0; k < 256; k++) reader->gray[k] = gray_of_luma(k);
    return reader;
}

void mh_webp_gray_row(const mh_webp_gray *reader, uint32_t y, uint8_t *out) {
    const uint8_t *luma = reader->luma + (size_t)y * (size_t)reader->stride;
    for (int x = 0; x < reader->width; x++) out[x] = reader->gray[luma[x]];
}

void mh_webp_gray_close(mh_webp_gray *reader) {
    if (reader == NULL) return;
    if (reader->decoder != NULL) WebPIDelete(reader->decoder);
    if (reader->planes) munmap(reader->planes, reader->planes_size);
    free(reader);
}
