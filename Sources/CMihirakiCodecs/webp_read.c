// libwebp behind plain C calls: lossy, lossless, alpha; an animation gives
// its first frame, composed on its canvas. libwebp reports errors by status
// codes, never by jumping or exiting.
#include "shim.h"

#include <stdlib.h>
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
