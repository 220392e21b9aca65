// Writing JPEG spreads with libjpeg-turbo: baseline, optimised Huffman
// tables, 4:2:0 for colour and a single component for gray. No metadata
// beyond the JFIF header, which says the samples are YCbCr of sRGB pixels.
#include "jpeg_errors.h"
#include "shim.h"

#include <stdlib.h>

int mh_jpeg_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                   mh_buffer *out, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (pixels == NULL || out == NULL || (channels != 1 && channels != 3) || width == 0 || height == 0 ||
        width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION || quality < 1 || quality > 100) {
        mh_set_error(error, MH_ERR_USAGE, "JPEG holds 1 or 3 channels, at most 65500 pixels a side, quality 1-100");
        return MH_ERR_USAGE;
    }
    struct jpeg_compress_struct cinfo;
    jump_error_manager errors;
    unsigned char *data = NULL;
    unsigned long size = 0;
    cinfo.err = &errors.pub;
    mh_jpeg_install_error_manager(&errors);
    if (setjmp(errors.jump)) {
        mh_set_error(error, mh_jpeg_classify(&errors), errors.message);
        jpeg_destroy_compress(&cinfo);
        free(data);
        return error ? error->code : MH_ERR_CORRUPT;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &data, &size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = channels;
    cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    cinfo.dct_method = JDCT_ISLOW;  // the exact integer transform, the same on every CPU
    if (channels == 3) {            // 4:2:0: chroma at half size both ways
        cinfo.comp_info[0].h_samp_factor = 2;
        cinfo.comp_info[0].v_samp_factor = 2;
        cinfo.comp_info[1].h_samp_factor = cinfo.comp_info[1].v_samp_factor = 1;
        cinfo.comp_info[2].h_samp_factor = cinfo.comp_info[2].v_samp_factor = 1;
    }
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)((const uint8_t *)pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    out->data = data;  // jpeg_mem_dest allocates with malloc, as mh_buffer_free expects
    out->size = size;
    out->capacity = size;
    return MH_OK;
}
