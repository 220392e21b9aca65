// Writing AVIF spreads with libavif (AV1 through libaom): one thread, a fixed
// speed, 4:2:0 for colour, 4:0:0 for gray, 4:4:4 with identity matrix when
// lossless; CICP says sRGB, and nothing else is stored.
#include "shim.h"

#include <stdlib.h>
#include <string.h>

#include "lazy_codecs.h"

/// libaom's speed for spreads: 0 is slowest and smallest, 10 fastest.
#define MH_AVIF_SPEED 8

static int fail(mh_error *error, avifResult result, const char *what) {
    int code = result == AVIF_RESULT_OUT_OF_MEMORY ? MH_ERR_NOMEM : MH_ERR_USAGE;
    mh_set_errorf(error, code, "%s: %s", what, avifResultToString(result));
    return code;
}

const char *mh_avif_unavailable(void) {
    const char *problem = mh_avif_load_problem();
    if (problem != NULL) return problem;
    return avifCodecName(AVIF_CODEC_CHOICE_AUTO, AVIF_CODEC_FLAG_CAN_ENCODE) != NULL ? NULL
                                                                                      : "this build's libavif has no AV1 encoder";
}

int mh_avif_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                   int lossless, mh_buffer *out, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (pixels == NULL || out == NULL || (channels != 1 && channels != 3 && channels != 4) || quality < 1 ||
        quality > 100 || width == 0 || height == 0) {
        mh_set_error(error, MH_ERR_USAGE, "AVIF is written from 1, 3 or 4 channels, quality 1-100");
        return MH_ERR_USAGE;
    }
    if (!mh_avif_load(error)) return MH_ERR_UNSUPPORTED;
    int gray = channels == 1;
    avifPixelFormat format = gray ? AVIF_PIXEL_FORMAT_YUV400
                                  : (lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420);
    avifImage *image = avifImageCreate((int)width, (int)height, 8, format);
    avifEncoder *encoder = NULL;
    avifRWData output = AVIF_DATA_EMPTY;
    int status = MH_OK;
    if (image == NULL) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return MH_ERR_NOMEM;
    }
    image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
    image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    image->matrixCoefficients = (lossless && !gray) ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601;
    image->yuvRange = AVIF_RANGE_FULL;
    if (gray) {
        // Full-range luma of a gray pixel is the gray value itself.
        avifImageAllocatePlanes(image, AVIF_PLANES_YUV);
        for (uint32_t y = 0; y < height; y++) {
            memcpy(image->yuvPlanes[AVIF_CHAN_Y] + (size_t)y * image->yuvRowBytes[AVIF_CHAN_Y],
                   (const uint8_t *)pixels + (size_t)y * stride, width);
        }
    } else {
        avifRGBImage rgb;
        avifRGBImageSetDefaults(&rgb, image);
        rgb.format = channels == 4 ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
        rgb.depth = 8;
        rgb.pixels = (uint8_t *)pixels;
        rgb.rowBytes = (uint32_t)stride;
        avifResult converted = avifImageRGBToYUV(image, &rgb);
        if (converted != AVIF_RESULT_OK) {
            status = fail(error, converted, "converting to YUV");
            goto done;
        }
    }
    encoder = avifEncoderCreate();
    if (encoder == NULL) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        status = MH_ERR_NOMEM;
        goto done;
    }
    // libavif 1.0's mapping of quality 0-100 onto AV1 quantizers 63-0.
    int quantizer = lossless ? AVIF_QUANTIZER_LOSSLESS : ((100 - quality) * 63 + 50) / 100;
    encoder->maxThreads = 1;
    encoder->speed = MH_AVIF_SPEED;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
    avifResult written = avifEncoderWrite(encoder, image, &output);
    if (written != AVIF_RESULT_OK) {
        status = fail(error, written, "encoding AVIF");
        goto done;
    }
    out->data = malloc(output.size ? output.size : 1);
    if (out->data == NULL) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        status = MH_ERR_NOMEM;
        goto done;
    }
    memcpy(out->data, output.data, output.size);
    out->size = out->capacity = output.size;
done:
    avifRWDataFree(&output);
    if (encoder) avifEncoderDestroy(encoder);
    avifImageDestroy(image);
    return status;
}
