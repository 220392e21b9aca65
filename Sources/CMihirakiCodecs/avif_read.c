// libavif behind plain C calls: the first image, 8/10/12-bit, any chroma
// subsampling, monochrome, alpha, converted to 8-bit RGB(A) by libavif; the
// irot/imir transforms are reported for the caller to apply. One thread, so
// the pixels never depend on scheduling. libavif reports errors by result
// codes, never by jumping or exiting.
#include "lazy_codecs.h"

#include <stdlib.h>

struct mh_avif_reader {
    avifDecoder *decoder;
};

static void avif_error(mh_error *error, avifResult result, const avifDecoder *decoder, const char *what) {
    const char *detail = decoder && decoder->diag.error[0] ? decoder->diag.error : avifResultToString(result);
    int code = MH_ERR_CORRUPT;
    if (result == AVIF_RESULT_OUT_OF_MEMORY) code = MH_ERR_NOMEM;
    if (result == AVIF_RESULT_NO_CODEC_AVAILABLE || result == AVIF_RESULT_NOT_IMPLEMENTED) code = MH_ERR_UNSUPPORTED;
    mh_set_errorf(error, code, "%s: %s", what, detail);
}

mh_avif_reader *mh_avif_open(const void *data, size_t size, mh_avif_info *info, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (!mh_avif_load(error)) return NULL;
    mh_avif_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL || (reader->decoder = avifDecoderCreate()) == NULL) {
        free(reader);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    avifDecoder *decoder = reader->decoder;
    decoder->maxThreads = 1;
    // Read what Pillow and libvips read: a file that only bends the
    // specification (a missing pixi property, a clap box out of range) is
    // still a picture. Damaged data is refused all the same.
    decoder->strictFlags = AVIF_STRICT_DISABLED;
    avifResult result = avifDecoderSetIOMemory(decoder, (const uint8_t *)data, size);
    if (result == AVIF_RESULT_OK) result = avifDecoderParse(decoder);
    if (result != AVIF_RESULT_OK) {
        avif_error(error, result, decoder, "not a readable AVIF");
        mh_avif_close(reader);
        return NULL;
    }
    const avifImage *image = decoder->image;
    info->width = image->width;
    info->height = image->height;
    info->depth = (int)image->depth;
    info->monochrome = image->yuvFormat == AVIF_PIXEL_FORMAT_YUV400;
    info->has_alpha = decoder->alphaPresent ? 1 : 0;
    info->rotation = (image->transformFlags & AVIF_TRANSFORM_IROT) ? image->irot.angle & 3 : 0;
    info->mirror = (image->transformFlags & AVIF_TRANSFORM_IMIR) ? (int)image->imir.mode : -1;
    if (image->icc.data && image->icc.size) {
        info->icc = image->icc.data;
        info->icc_size = image->icc.size;
    }
    return reader;
}

int mh_avif_read(mh_avif_reader *reader, void *pixels, size_t stride, int channels, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    avifDecoder *decoder = reader->decoder;
    avifResult result = avifDecoderNextImage(decoder);
    if (result != AVIF_RESULT_OK) {
        avif_error(error, result, decoder, "AVIF image data is damaged");
        return error ? error->code : MH_ERR_CORRUPT;
    }
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, decoder->image);
    rgb.format = channels == 4 ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
    rgb.depth = 8;
    rgb.pixels = pixels;
    rgb.rowBytes = (uint32_t)stride;
    result = avifImageYUVToRGB(decoder->image, &rgb);
    if (result != AVIF_RESULT_OK) {
        avif_error(error, result, NULL, "AVIF image data is damaged: its decoded planes cannot be converted to RGB");
        return error ? error->code : MH_ERR_CORRUPT;
    }
    return MH_OK;
}

void mh_avif_close(mh_avif_reader *reader) {
    if (reader == NULL) return;
    if (reader->decoder) avifDecoderDestroy(reader->decoder);
    free(reader);
}
