// Reads a JPEG picture of a page poppler draws to its last scan line, at
// 1/8 scale (the entropy data is decoded whole; the inverse DCT is cheap),
// before poppler draws it: poppler's own libjpeg prints a corrupt picture's
// warnings on stderr and draws what it could, a wrong page.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "pdf_jpeg_check.h"

struct checker {
    struct jpeg_error_mgr pub;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
};

static void fail(j_common_ptr cinfo) {
    struct checker *checker = (struct checker *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, checker->message);
    longjmp(checker->escape, 1);
}

// A warning (corrupt data, premature end of a segment) is damage too.
static void warn(j_common_ptr cinfo, int level) {
    if (level < 0) fail(cinfo);
}

static void quiet(j_common_ptr cinfo) { (void)cinfo; }

int mh_pdf_jpeg_damage(const unsigned char *data, size_t size, char *why, size_t why_size) {
    struct jpeg_decompress_struct info;
    struct checker checker;
    memset(&checker, 0, sizeof checker);
    info.err = jpeg_std_error(&checker.pub);
    checker.pub.error_exit = fail;
    checker.pub.emit_message = warn;
    checker.pub.output_message = quiet;
    unsigned char *volatile row = NULL;
    if (setjmp(checker.escape)) {
        jpeg_destroy_decompress(&info);
        free(row);
        snprintf(why, why_size, "%s", checker.message);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    info.scale_num = 1;
    info.scale_denom = 8;
    info.dct_method = JDCT_IFAST;
    info.do_fancy_upsampling = FALSE;
    jpeg_start_decompress(&info);
    row = malloc((size_t)info.output_width * (size_t)info.output_components + 16);
    if (!row) {
        jpeg_destroy_decompress(&info);
        return 0;  // no memory to check: poppler draws it, as before
    }
    JSAMPROW rows[1] = { (JSAMPROW)row };
    while (info.output_scanline < info.output_height) jpeg_read_scanlines(&info, rows, 1);
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    return 0;
}
