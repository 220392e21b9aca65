#include "CMihirakiFixtureCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct fixture_errors {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
} fixture_errors;

static void fail(j_common_ptr cinfo) {
    fixture_errors *errors = (fixture_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(errors->message, 200, "%s", text);
    longjmp(errors->jump, 1);
}

static void quiet(j_common_ptr cinfo) { (void)cinfo; }

int mh_fixture_jpeg_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                           int quality, int progressive, int ycck, int adobe_marker, const void *app1,
                           size_t app1_size, uint8_t **out, size_t *out_size, char message[200]) {
    message[0] = 0;
    if (pixels == NULL || out == NULL || out_size == NULL || !(channels == 1 || channels == 3 || channels == 4) ||
        width == 0 || height == 0 || stride < (size_t)width * (size_t)channels || app1_size > 65533) {
        snprintf(message, 200, "invalid image for JPEG encoding");
        return 1;
    }
    struct jpeg_compress_struct cinfo;
    fixture_errors errors;
    jpeg_std_error(&errors.pub);
    errors.pub.error_exit = fail;
    errors.pub.output_message = quiet;
    errors.message = message;
    cinfo.err = &errors.pub;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_size = 0;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&buffer, &buffer_size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = channels;
    cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : (channels == 3 ? JCS_RGB : JCS_CMYK);
    jpeg_set_defaults(&cinfo);
    if (channels == 4) jpeg_set_colorspace(&cinfo, ycck ? JCS_YCCK : JCS_CMYK);
    cinfo.write_Adobe_marker = adobe_marker ? TRUE : FALSE;
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (app1 != NULL && app1_size > 0) {
        jpeg_write_marker(&cinfo, JPEG_APP0 + 1, (const JOCTET *)app1, (unsigned int)app1_size);
    }
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)((const uint8_t *)pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_size = buffer_size;
    return 0;
}
