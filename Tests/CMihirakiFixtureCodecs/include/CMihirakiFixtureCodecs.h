// A JPEG writer for test fixtures only: Mihiraki reads JPEG but never writes
// it, and the tests need files with exact features (progressive, YCCK, Adobe
// CMYK, EXIF) that no fixture on disk covers in every combination.
#ifndef CMIHIRAKI_FIXTURE_CODECS_H
#define CMIHIRAKI_FIXTURE_CODECS_H

#include <stddef.h>
#include <stdint.h>

/// Encodes `channels` (1 gray, 3 RGB, 4 CMYK) samples as JPEG. `ycck`: store
/// CMYK as YCCK. `adobe_marker`: write the Adobe APP14 marker (inverted CMYK is
/// then the caller's job). `app1`: an optional APP1 payload. On success returns
/// 0 and a malloc'd `*out` of `*out_size` bytes (free it); otherwise non-zero
/// with libjpeg's reason in `message`.
int mh_fixture_jpeg_encode(const void *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                           int quality, int progressive, int ycck, int adobe_marker, const void *app1,
                           size_t app1_size, uint8_t **out, size_t *out_size, char message[200]);

#endif
