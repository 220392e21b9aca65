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

int mh_webp_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                   int lossless, mh_buffer *out, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (pixels == NULL || out == NULL || (channels != 3 && channels != 4) || quality < 1 || quality > 100) {
        mh_set_error(error, MH_ERR_USAGE, "WebP is written from 3 or 4 channels, quality 1-100");
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
    int imported = channels == 4 ? WebPPictureImportRGBA(&picture, (const uint8_t *)pixels, (int)stride)
                                 : WebPPictureImportRGB(&picture, (const uint8_t *)pixels, (int)stride);
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
