// The one way the C shim reports a failure, and the buffer every encoder returns.
#include "shim.h"

#include <stdio.h>
#include <stdlib.h>

void mh_set_error(mh_error *error, int code, const char *message) {
    if (error == NULL) return;
    error->code = code;
    snprintf(error->message, sizeof error->message, "%s", message);
}

void mh_buffer_free(mh_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
