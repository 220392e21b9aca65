// The C face of Mihiraki's PDF reader (qpdf, Apache-2.0): structure, page
// boxes, the catalog's declarations, and a page's one picture, either as the
// JPEG stream it holds or as 8-bit samples. Every qpdf exception and warning
// stays behind these functions: each returns a status and a message.
#ifndef CMIHIRAKI_PDF_H
#define CMIHIRAKI_PDF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    MH_PDF_OK = 0,
    MH_PDF_ENCRYPTED = 1,   // a user password is needed
    MH_PDF_DAMAGED = 2,     // the file or a page cannot be read
    MH_PDF_UNSUPPORTED = 3, // readable, but not something Mihiraki reads yet
    MH_PDF_TOO_LARGE = 4,   // a stream inflates past its picture's size
};

typedef struct mh_pdf mh_pdf;

typedef struct mh_pdf_info {
    int pages;
    int right_to_left;   // /ViewerPreferences /Direction /R2L
    int page_layout;     // 0 none or other, 1 /TwoPageLeft, 2 /TwoPageRight
} mh_pdf_info;

typedef struct mh_pdf_page {
    // The page box (CropBox, else MediaBox) in points, /UserUnit and /Rotate applied.
    double width, height;
    int rotate;          // 0, 90, 180, 270
    // 1 when the page draws exactly one picture over the whole page, and nothing else.
    int single_image;
    // Why it is not (set when single_image is 0): "text", "several pictures", …
    char reason[96];
    int image_width, image_height;
    int jpeg;            // the picture is a JPEG stream (DCTDecode): its bytes are a JPEG file
    int channels;        // otherwise: 1 (gray), 2 (gray, alpha), 3 (RGB) or 4 (RGBA) samples per pixel as handed over
    // The largest picture the page draws anywhere (through its forms, soft masks too), by its declared size.
    int largest_width, largest_height;
} mh_pdf_page;

// Opens the PDF at `path` (read as needed, not whole). On failure returns NULL
// with *status and a message in `message`.
mh_pdf *mh_pdf_open(const char *path, mh_pdf_info *info, int *status, char *message, size_t message_size);
void mh_pdf_close(mh_pdf *pdf);

// What page `index` (0-based) holds.
int mh_pdf_page_info(mh_pdf *pdf, int index, mh_pdf_page *page, char *message, size_t message_size);

// Bytes handed to the caller, owned by the reader until mh_pdf_bytes_free.
typedef struct mh_pdf_bytes {
    const uint8_t *data;
    size_t size;
    void *owner;
} mh_pdf_bytes;
void mh_pdf_bytes_free(mh_pdf_bytes *bytes);

// The page's picture: the JPEG file for a JPEG stream (its first `limit`
// bytes, or all of it), otherwise the samples as a Mihiraki sample container
// (`MHPDFPX1`, then width, height and channels as little-endian u32, u32,
// u32, then 8-bit rows: gray, gray+alpha, RGB or RGBA; alpha from a soft mask). `max_pixels` is checked before
// anything is inflated.
int mh_pdf_page_image(mh_pdf *pdf, int index, uint64_t max_pixels, size_t limit, mh_pdf_bytes *out,
                      char *message, size_t message_size);

// Page `index` as a PDF file of its own (its resources copied, its inherited
// attributes on it, no encryption), for a rasteriser to draw. Refused
// (MH_PDF_DAMAGED) when a JPEG picture it draws is truncated, which a
// rasteriser draws wrong without a word. (The pixel limit is checked against
// `largest_width × largest_height` by the caller, before this is asked for.)
int mh_pdf_page_document(mh_pdf *pdf, int index, mh_pdf_bytes *out, char *message, size_t message_size);


#ifdef __cplusplus
}
#endif
#endif
