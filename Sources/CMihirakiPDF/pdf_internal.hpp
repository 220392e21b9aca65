// Mihiraki's PDF reader, inside: what its files share. Not part of the
// module's C face (include/CMihirakiPDF.h); every name lives in `mhpdf`.
#pragma once
#define POINTERHOLDER_TRANSITION 4  // qpdf: std::shared_ptr throughout, no transition warnings
#include "CMihirakiPDF.h"

#include <qpdf/QPDF.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFPageObjectHelper.hh>

#include <array>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace mhpdf {

using Matrix = std::array<double, 6>;

// What a page's one picture is, found once per page.
struct Analysis {
    mh_pdf_page page{};
    QPDFObjectHandle image;   // the image stream, when single_image
    int components = 0;       // colour components of one sample (the index for Indexed)
    int bits = 8;
    bool indexed = false;
    int baseComponents = 0;   // Indexed: components of the palette's colours
    std::vector<uint8_t> palette;
    std::vector<double> decode; // /Decode, 2 per component; empty for the default
    bool jpx = false;           // a JPEG 2000 stream, decoded by openjp2
    QPDFObjectHandle softMask;  // an /SMask of the picture's size: its alpha
    int softMaskBits = 8;
};

// What page `helper` holds (throws Failure for a page that cannot be read).
Analysis analysePage(QPDFPageObjectHelper &helper);

// A page or file that cannot be read: its MH_PDF_* status and the reason.
struct Failure : std::runtime_error {
    int status;
    Failure(int status, std::string const &what) : std::runtime_error(what), status(status) {}
};

// `text` into `message` (at most `size` bytes, one line).
void put(char *message, size_t size, std::string text);

// No message of qpdf's reaches stderr: its logger discards, its warnings are off.
void silence(QPDF &q);

// A stream piped into one buffer of at most `limit` bytes (`expected`
// reserved): as stored (decrypted) with qpdf_dl_none, or decoded. A longer
// stream keeps its first `limit` bytes and says it overflowed; with
// `stopEarly` qpdf is stopped there (only where no decryption is in the way).
struct Piped {
    std::vector<uint8_t> bytes;
    bool piped = false;      // qpdf read the whole stream without error
    bool attempted = false;  // qpdf decoded its filters
    bool overflowed = false;
};

Piped pipe(QPDFObjectHandle stream, qpdf_stream_decode_level_e level, size_t limit, size_t expected,
           bool stopEarly = false);

// A stream as stored (decrypted, not decoded).
std::vector<uint8_t> rawStream(QPDFObjectHandle stream);

// The most a page's content streams may inflate to, together: a page of
// a few kilobytes must not make a parse of gigabytes (SPEC §6, "Bounded work").
constexpr size_t kContentLimit = size_t(256) << 20;

// Refuses a page whose content streams inflate past kContentLimit, counting
// them before anything parses or keeps them.
void checkContentSize(QPDFPageObjectHelper &helper);

// A JPEG 2000 codestream or JP2 file decoded by openjp2, from memory.
struct Jpx {
    int width = 0, height = 0, components = 0;
    std::string why;                // set when Mihiraki does not read this kind of JPEG 2000 picture
    std::vector<uint8_t> samples;   // 8-bit, gray or RGB, when decoded
};

// `bytes` read by openjp2: its header always, its samples when `decode`.
Jpx jpx(std::vector<uint8_t> const &bytes, bool decode);

// The largest picture (image XObject or soft mask) a page draws, through its
// forms, by its declared size: width × height, 0 × 0 when it draws none.
void largestPicture(QPDFPageObjectHelper &helper, int &width, int &height);

// True when a JPEG picture's own frame is the size its dictionary declares;
// otherwise false and why. A rasteriser draws the dictionary's size, so only
// then is the JPEG file the page's picture pixel for pixel.
bool jpegMatchesDictionary(QPDFObjectHandle picture, std::string &why);

// Refuses a page that draws a JPEG picture ending before its end-of-image
// marker, which a rasteriser draws wrong without a word (SPEC §6).
void checkPictures(QPDFPageObjectHelper &helper);

// Runs `body`, turning every exception into its status and a message.
template <typename F> int guarded(char *message, size_t size, F body) {
    try {
        return body();
    } catch (Failure const &e) {
        put(message, size, e.what());
        return e.status;
    } catch (QPDFExc const &e) {
        put(message, size, e.getMessageDetail().empty() ? e.what() : e.getMessageDetail());
        return e.getErrorCode() == qpdf_e_password ? MH_PDF_ENCRYPTED : MH_PDF_DAMAGED;
    } catch (std::bad_alloc const &) {
        put(message, size, "out of memory");
        return MH_PDF_TOO_LARGE;
    } catch (std::exception const &e) {
        put(message, size, e.what());
        return MH_PDF_DAMAGED;
    } catch (...) {
        put(message, size, "unreadable");
        return MH_PDF_DAMAGED;
    }
}

} // namespace mhpdf
