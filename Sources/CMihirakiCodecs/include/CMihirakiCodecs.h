// The C face of Mihiraki's codecs.
//
// Every libpng and libjpeg call happens behind these functions. Both libraries
// report fatal errors by longjmp (libjpeg's default even calls exit()), so each
// function here owns its own setjmp and returns a plain status instead: no
// jump ever crosses a Swift frame, and no Swift code runs inside a jump region.
// Only plain C types cross the boundary, so Swift never imports png.h or
// jpeglib.h.
#ifndef CMIHIRAKI_CODECS_H
#define CMIHIRAKI_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes shared by every function below.
enum {
    MH_OK = 0,
    MH_ERR_CORRUPT = 1,      ///< the data is damaged or truncated
    MH_ERR_UNSUPPORTED = 2,  ///< well-formed, but a feature Mihiraki does not read
    MH_ERR_NOMEM = 3,        ///< an allocation failed
    MH_ERR_USAGE = 4,        ///< the caller passed something invalid
};

/// Why a call failed: a status code and a one-line, human-readable reason.
typedef struct mh_error {
    int code;
    char message[240];
} mh_error;

/// Bytes produced by an encoder; release with `mh_buffer_free`.
typedef struct mh_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
} mh_buffer;

void mh_buffer_free(mh_buffer *buffer);

#ifdef __cplusplus
}
#endif

#include "codecs_png_jpeg_read.h"
#include "codecs_decoded_whole.h"
#include "codecs_write.h"
#include "codecs_archive_color.h"

#endif
