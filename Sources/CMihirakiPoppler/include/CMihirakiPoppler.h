// The C face of Mihiraki's PDF rasteriser: poppler (GPL-2.0-or-later), built
// only with the package trait `Poppler` (on by default; a permissive build of
// the library turns it off). Each call loads its own document from the bytes
// it is given, so no document is ever shared between threads; the first
// rendering in a process is serialised (poppler sets up colour management
// lazily, without a lock). Nothing is printed: poppler's messages are kept
// and returned as the error text.
#ifndef CMIHIRAKI_POPPLER_H
#define CMIHIRAKI_POPPLER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The first page drawn to exactly width × height pixels, white paper, as RGB
// rows of `stride` bytes. Returns 0, or -1 with a message (-2 when the
// document needs a password).
int mh_poppler_render(const uint8_t *data, size_t size, int width, int height, uint8_t *rgb, size_t stride,
                      char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif
