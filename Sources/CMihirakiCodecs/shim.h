// Helpers shared by the C files of CMihirakiCodecs; not part of the Swift face.
#ifndef CMIHIRAKI_CODECS_SHIM_H
#define CMIHIRAKI_CODECS_SHIM_H

#include "CMihirakiCodecs.h"

/// Fills `error` (when not NULL) with a status and a one-line message.
void mh_set_error(mh_error *error, int code, const char *message);
/// The same, with the message formatted as printf formats it.
void mh_set_errorf(mh_error *error, int code, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
