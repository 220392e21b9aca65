// The JPEG reader's state, shared by jpeg_read.c (opening, rows, scale)
// and jpeg_edges.c (edges read from the DCT coefficients).
#ifndef MH_JPEG_READER_H
#define MH_JPEG_READER_H

#include "jpeg_errors.h"
#include "shim.h"

#include <stdio.h>

#include <jpeglib.h>

typedef struct scan_limit_monitor {
    struct jpeg_progress_mgr pub;
    jump_error_manager *errors;
} scan_limit_monitor;

struct mh_jpeg_reader {
    struct jpeg_decompress_struct cinfo;  // first, so libjpeg's callbacks can find the reader
    jump_error_manager errors;
    scan_limit_monitor monitor;
    int started;
    JOCTET *icc;  // the APP2 ICC profile, malloc'd by libjpeg-turbo
    // Buffered-image mode (mh_jpeg_edges): the coefficient arrays libjpeg
    // requests, one per component, seen through its memory manager.
    int buffered;
    int output_started;
    int array_count;
    jvirt_barray_ptr arrays[MAX_COMPONENTS];
    jvirt_barray_ptr (*request_virt_barray)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
};

/// Stops a progressive file after MH_JPEG_MAX_SCANS scans (libjpeg's progress callback).
void mh_jpeg_check_scan_count(j_common_ptr cinfo);

#endif
