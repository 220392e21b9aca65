// Reading JPEG with libjpeg(-turbo) behind plain C calls; errors jump back to
// the setjmp of the public function that is running (jpeg_errors.c).
#include "jpeg_reader.h"

#include <CMihirakiKernels.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/// The longest a progressive file may run before it is called hostile: a few
/// hundred scans is already far beyond any real encoder's output.
#define MH_JPEG_MAX_SCANS 1000

// MARK: Reading

void mh_jpeg_check_scan_count(j_common_ptr cinfo) {
    if (cinfo->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)cinfo;
        if (d->input_scan_number > MH_JPEG_MAX_SCANS) {
            jump_error_manager *manager = (jump_error_manager *)cinfo->err;
            snprintf(manager->message, sizeof manager->message,
                     "more than %d progressive scans (hostile file?)", MH_JPEG_MAX_SCANS);
            manager->pub.msg_code = JERR_BAD_PROGRESSION;
            longjmp(manager->jump, 1);
        }
    }
}

mh_jpeg_reader *mh_jpeg_open(const void *data, size_t size, mh_jpeg_info *info, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (data == NULL || info == NULL) {
        mh_set_error(error, MH_ERR_USAGE, "invalid arguments");
        return NULL;
    }
    if (size < 4) {
        mh_set_error(error, MH_ERR_CORRUPT, "file is truncated");
        return NULL;
    }
    mh_jpeg_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        mh_set_error(error, MH_ERR_NOMEM, "out of memory");
        return NULL;
    }
    mh_jpeg_install_error_manager(&reader->errors);
    reader->cinfo.err = &reader->errors.pub;
    if (setjmp(reader->errors.jump)) {
        mh_set_error(error, mh_jpeg_classify(&reader->errors), reader->errors.message);
        mh_jpeg_close(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->cinfo);
    reader->monitor.pub.progress_monitor = mh_jpeg_check_scan_count;
    reader->monitor.errors = &reader->errors;
    reader->cinfo.progress = &reader->monitor.pub;
    jpeg_mem_src(&reader->cinfo, (const unsigned char *)data, (unsigned long)size);
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&reader->cinfo, TRUE);

    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    memset(info, 0, sizeof *info);
    info->adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    unsigned int icc_size = 0;
    if (jpeg_read_icc_profile(cinfo, &reader->icc, &icc_size) && reader->icc) {
        info->icc = reader->icc;
        info->icc_size = icc_size;
    }
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo->out_color_space = JCS_GRAYSCALE;
        info->color_model = MH_JPEG_GRAY;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;  // libjpeg turns YCCK into CMYK
        info->color_model = MH_JPEG_CMYK;
        break;
    default:
        cinfo->out_color_space = JCS_RGB;
        info->color_model = MH_JPEG_RGB;
        break;
    }
    cinfo->dct_method = JDCT_ISLOW;  // the accurate IDCT: same pixels on every CPU
    jpeg_calc_output_dimensions(cinfo);
    info->width = cinfo->output_width;
    info->height = cinfo->output_height;
    info->channels = cinfo->output_components;

    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            info->exif = marker->data + 6;
            info->exif_size = marker->data_length - 6;
            break;
        }
    }
    return reader;
}

int mh_jpeg_read_row(mh_jpeg_reader *reader, void *row, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (reader == NULL || row == NULL || (reader->started && reader->cinfo.output_scanline >= reader->cinfo.output_height)) {
        mh_set_error(error, MH_ERR_USAGE, "no more rows");
        return MH_ERR_USAGE;
    }
    if (setjmp(reader->errors.jump)) {
        mh_set_error(error, mh_jpeg_classify(&reader->errors), reader->errors.message);
        return error ? error->code : MH_ERR_CORRUPT;
    }
    if (!reader->started) {
        reader->started = 1;
        jpeg_start_decompress(&reader->cinfo);
    } else if (reader->buffered && !reader->output_started) {
        // Every scan is in: one output pass from the kept coefficients.
        reader->output_started = 1;
        jpeg_start_output(&reader->cinfo, reader->cinfo.input_scan_number);
    }
    JSAMPROW rows[1] = {(JSAMPROW)row};
    if (jpeg_read_scanlines(&reader->cinfo, rows, 1) != 1) {
        // Cannot happen with an in-memory source, which never suspends.
        mh_set_error(error, MH_ERR_CORRUPT, "decoder returned no row");
        return MH_ERR_CORRUPT;
    }
    if (reader->cinfo.output_scanline == reader->cinfo.output_height) {
        if (reader->buffered) jpeg_finish_output(&reader->cinfo);
        jpeg_finish_decompress(&reader->cinfo);
    }
    return MH_OK;
}

int mh_jpeg_reduce(mh_jpeg_reader *reader, uint32_t min_width, uint32_t min_height, uint32_t *width,
                   uint32_t *height, mh_error *error) {
    mh_set_error(error, MH_OK, "");
    if (reader == NULL || reader->started || width == NULL || height == NULL) {
        mh_set_error(error, MH_ERR_USAGE, "reduce before the first row");
        return MH_ERR_USAGE;
    }
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    uint64_t full_width = cinfo->image_width, full_height = cinfo->image_height;
    // Only 1/8, 1/4 and 1/2: libjpeg's other scaled IDCTs (3/8, 5/8, …) leave
    // block artefacts on screentone: measured on the benchmark's pages at
    // x300, 18-38 dB against a full decode, where 1/2 and 1/4 give 47-52 dB.
    // libjpeg rounds a scaled side up: ceil(side * m / 8).
    unsigned int m = 1;
    while (m < 8 && ((full_width * m + 7) / 8 < min_width || (full_height * m + 7) / 8 < min_height)) m *= 2;
    if (setjmp(reader->errors.jump)) {
        mh_set_error(error, mh_jpeg_classify(&reader->errors), reader->errors.message);
        return error ? error->code : MH_ERR_CORRUPT;
    }
    cinfo->scale_num = m;
    cinfo->scale_denom = 8;
    jpeg_calc_output_dimensions(cinfo);
    *width = cinfo->output_width;
    *height = cinfo->output_height;
    return MH_OK;
}

void mh_jpeg_close(mh_jpeg_reader *reader) {
    if (reader == NULL) return;
    // jpeg_destroy never raises errors, so no jump region is needed here.
    jpeg_destroy_decompress(&reader->cinfo);
    free(reader->icc);
    free(reader);
}
