#ifndef MIHIRAKI_PDF_JPEG_CHECK_H
#define MIHIRAKI_PDF_JPEG_CHECK_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
/// 1 when the JPEG stream `data` is damaged (libjpeg's error or warning,
/// the message in `why`), 0 when it decodes whole.
int mh_pdf_jpeg_damage(const unsigned char *data, size_t size, char *why, size_t why_size);
#ifdef __cplusplus
}
#endif
#endif
