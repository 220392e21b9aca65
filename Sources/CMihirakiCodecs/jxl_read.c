// libjxl behind plain C calls: lossless and lossy, alpha, the orientation
// applied by libjxl itself; the first frame of an animation. No parallel
// runner, so the pixels never depend on scheduling. libjxl reports errors by
// status codes, never by jumping or exiting.
#include "shim.h"

#include <stdlib.h>

#include "lazy_codecs.h"

struct mh_jxl_reader {
    JxlDecoder *decoder;
    uint8_t *icc;
};

/// The pixels' profile as ICC, unless it is plain sRGB (or gray with the sRGB
/// curve), which needs no conversion.
static void read_profile(mh_jxl_reader *reader, mh_jxl_info *info) {
    JxlColorEncoding encoding;
    if (JxlDecoderGetColorAsEncodedProfile(reader->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) ==
            JXL_DEC_SUCCESS &&
        encoding.white_point == JXL_WHITE_POINT_D65 && encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB &&
        (encoding.color_space == JXL_COLOR_SPACE_GRAY ||
         (encoding.color_space == JXL_COLOR_SPACE_RGB && encoding.primaries == JXL_PRIMARIES_SRGB))) {
        return;
    }
    size_t size = 0;
    if (JxlDecoderGetICCProfileSize(reader->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) != JXL_DEC_SUCCESS ||
        size == 0 || (reader->icc = malloc(size)) == NULL) {
        return;
    }
    if (JxlDecoderGetColorAsICCProfile(reader->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, reader->icc, size) ==
        JXL_DEC_SUCCESS) {
        info->icc = reader->icc;
        info->icc_size = size;
    }
}

mh_jxl_reader *mh_jxl_open(const void *data, size_t size, mh_jxl_info *info, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (!mh_jxl_load(error)) return NULL;
    mh_jxl_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL || (reader->decoder = JxlDecoderCreate(NULL)) == NULL) {
        free(reader);
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    JxlDecoder *decoder = reader->decoder;
    if (JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE) !=
            JXL_DEC_SUCCESS ||
        JxlDecoderSetInput(decoder, (const uint8_t *)data, size) != JXL_DEC_SUCCESS) {
        mh_set_error(error, MH_ERR_CORRUPT, "not a readable JPEG XL image");
        mh_jxl_close(reader);
        return NULL;
    }
    JxlDecoderCloseInput(decoder);
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
        if (status == JXL_DEC_BASIC_INFO) break;
        mh_set_error(error, MH_ERR_CORRUPT,
                     status == JXL_DEC_NEED_MORE_INPUT ? "JPEG XL data is truncated" : "JPEG XL header is damaged");
        mh_jxl_close(reader);
        return NULL;
    }
    JxlBasicInfo basic;
    if (JxlDecoderGetBasicInfo(decoder, &basic) != JXL_DEC_SUCCESS || basic.xsize == 0 || basic.ysize == 0) {
        mh_set_error(error, MH_ERR_CORRUPT, "JPEG XL header is damaged");
        mh_jxl_close(reader);
        return NULL;
    }
    // libjxl turns the image upright itself; report the upright size.
    int swaps = basic.orientation >= JXL_ORIENT_TRANSPOSE;
    info->width = swaps ? basic.ysize : basic.xsize;
    info->height = swaps ? basic.xsize : basic.ysize;
    info->gray = basic.num_color_channels == 1;
    info->has_alpha = basic.alpha_bits > 0;
    // The colour encoding follows the basic info.
    JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
    if (status != JXL_DEC_COLOR_ENCODING) {
        mh_set_error(error, MH_ERR_CORRUPT,
                     status == JXL_DEC_NEED_MORE_INPUT ? "JPEG XL data is truncated" : "JPEG XL header is damaged");
        mh_jxl_close(reader);
        return NULL;
    }
    read_profile(reader, info);
    return reader;
}

int mh_jxl_read(mh_jxl_reader *reader, void *pixels, size_t size, int channels, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    JxlDecoder *decoder = reader->decoder;
    JxlPixelFormat format = {(uint32_t)channels, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
        switch (status) {
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER: {
            size_t needed = 0;
            if (JxlDecoderImageOutBufferSize(decoder, &format, &needed) != JXL_DEC_SUCCESS || needed > size ||
                JxlDecoderSetImageOutBuffer(decoder, &format, pixels, size) != JXL_DEC_SUCCESS) {
                mh_set_error(error, MH_ERR_CORRUPT, "JPEG XL image does not match its header");
                return MH_ERR_CORRUPT;
            }
            break;
        }
        case JXL_DEC_FULL_IMAGE:
        case JXL_DEC_SUCCESS:
            return MH_OK;
        case JXL_DEC_NEED_MORE_INPUT:
            mh_set_error(error, MH_ERR_CORRUPT, "JPEG XL data is truncated");
            return MH_ERR_CORRUPT;
        case JXL_DEC_ERROR:
            mh_set_error(error, MH_ERR_CORRUPT, "JPEG XL image data is damaged");
            return MH_ERR_CORRUPT;
        default:
            break;  // events not subscribed to are not delivered; anything else, carry on
        }
    }
}

void mh_jxl_close(mh_jxl_reader *reader) {
    if (reader == NULL) return;
    if (reader->decoder) JxlDecoderDestroy(reader->decoder);
    free(reader->icc);
    free(reader);
}
