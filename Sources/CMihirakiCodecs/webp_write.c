// Writing WebP spreads with libwebp: lossy (YUV 4:2:0, alpha kept losslessly)
// or lossless, single-threaded, no metadata chunks.
#include "shim.h"

#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>

static const char *webp_error_text(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "too large for WebP (at most 16383 pixels a side)";
    default: return "libwebp could not encode the image";
    }
}

/// Lossy WebP of a gray spread, without expanding it to RGB first: VP8
/// stores limited-range BT.601 luma, so each gray value goes through the
/// luma row of libwebp's own RGB-to-YUV matrix (coefficients 16839 + 33059 +
/// 6420 = 56318, 16 bits of fraction, +16 offset); chroma of a gray pixel is
/// exactly 128. The bytes equal those of importing the same spread as RGB.
static int import_gray(WebPPicture *picture, const uint8_t *pixels, size_t stride) {
    picture->use_argb = 0;
    picture->colorspace = WEBP_YUV420;
    if (!WebPPictureAlloc(picture)) return 0;
    uint8_t luma[256];
    for (int g = 0; g < 256; g++) luma[g] = (uint8_t)((56318 * g + (1 << 15) + (16 << 16)) >> 16);
    for (int y = 0; y < picture->height; y++) {
        const uint8_t *src = pixels + (size_t)y * stride;
        uint8_t *dst = picture->y + (size_t)y * picture->y_stride;
        for (int x = 0; x < picture->width; x++) dst[x] = luma[src[x]];
    }
    int chroma_height = (picture->height + 1) / 2, chroma_width = (picture->width + 1) / 2;
    for (int y = 0; y < chroma_height; y++) {
        memset(picture->u + (size_t)y * picture->uv_stride, 128, (size_t)chroma_width);
        memset(picture->v + (size_t)y * picture->uv_stride, 128, (size_t)chroma_width);
    }
    return 1;
}

int mh_webp_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                   int lossless, mh_buffer *out, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (pixels == NULL || out == NULL || channels < 1 || channels == 2 || channels > 4 || (channels == 1 && lossless) ||
        quality < 1 || quality > 100) {
        mh_set_error(error, MH_ERR_USAGE, "WebP is written from gray (lossy only), RGB or RGBA, quality 1-100");
        return MH_ERR_USAGE;
    }
    if (width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        mh_set_error(error, MH_ERR_USAGE, webp_error_text(VP8_ENC_ERROR_BAD_DIMENSION));
        return MH_ERR_USAGE;
    }
    WebPConfig config;
    WebPPicture picture;
    WebPMemoryWriter writer;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) {
        mh_set_error(error, MH_ERR_USAGE, "libwebp version mismatch");
        return MH_ERR_USAGE;
    }
    // With lossless, quality is the effort spent on a smaller file, as in cwebp.
    config.quality = (float)quality;
    config.lossless = lossless ? 1 : 0;
    config.method = 4;
    config.thread_level = 0;
    picture.use_argb = lossless ? 1 : 0;
    picture.width = (int)width;
    picture.height = (int)height;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int imported;
    if (channels == 1) {
        imported = import_gray(&picture, (const uint8_t *)pixels, stride);
    } else if (channels == 4) {
        imported = WebPPictureImportRGBA(&picture, (const uint8_t *)pixels, (int)stride);
    } else {
        imported = WebPPictureImportRGB(&picture, (const uint8_t *)pixels, (int)stride);
    }
    int status = MH_OK;
    if (!imported) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        status = MH_ERR_NOMEM;
    } else if (!WebPEncode(&config, &picture)) {
        status = picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? MH_ERR_NOMEM : MH_ERR_USAGE;
        mh_set_error(error, status, webp_error_text(picture.error_code));
    } else {
        out->data = malloc(writer.size ? writer.size : 1);
        if (out->data == NULL) {
            mh_set_error(error, MH_ERR_NOMEM, "out of memory");
            status = MH_ERR_NOMEM;
        } else {
            memcpy(out->data, writer.mem, writer.size);
            out->size = out->capacity = writer.size;
        }
    }
    WebPPictureFree(&picture);
    WebPMemoryWriterClear(&writer);
    return status;
}
