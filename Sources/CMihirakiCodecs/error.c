// The one way the C shim reports a failure, and the buffer every encoder returns.
#include "shim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void mh_set_error(mh_error *error, int code, const char *message) {
    if (error == NULL) return;
    error->code = code;
    snprintf(error->message, sizeof error->message, "%s", message);
}

void mh_set_errorf(mh_error *error, int code, const char *format, ...) {
    if (error == NULL) return;
    error->code = code;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
}

void mh_buffer_free(mh_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
