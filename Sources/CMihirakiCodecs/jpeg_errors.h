// libjpeg's default error handler calls exit(); Mihiraki's formats the
// message and longjmps back to the public C function that is running. Shared
// by the JPEG reader and writer; not part of the Swift face.
#ifndef CMIHIRAKI_JPEG_ERRORS_H
#define CMIHIRAKI_JPEG_ERRORS_H

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

typedef struct jump_error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 32];
    int fatal_warnings;
} jump_error_manager;

/// Formats libjpeg's current message into the manager and jumps back.
void mh_jpeg_fail_with_message(j_common_ptr cinfo);
/// Installs the jumping error handler; warnings that mean damaged data are fatal
/// unless `fatal_warnings` is cleared.
void mh_jpeg_install_error_manager(jump_error_manager *manager);
/// The shim's status code for libjpeg's last error.
int mh_jpeg_classify(const jump_error_manager *manager);

#endif
