// Mihiraki's PDF reader: the pictures a page draws, measured and checked
// before a rasteriser sees them.
#include "pdf_jpeg_check.h"
#include "pdf_internal.hpp"

#include <qpdf/QPDFObjGen.hh>

#include <set>

namespace mhpdf {

namespace {

// Calls `visit` on every image stream `resources` names, through form
// XObjects (each object once, at most 32 forms deep), and on their soft masks.
template <typename F> void forEachPicture(QPDFObjectHandle resources, F const &visit, std::set<QPDFObjGen> &seen, int depth) {
    if (depth > 32 || !resources.isDictionary()) return;
    QPDFObjectHandle xobjects = resources.getKey("/XObject");
    if (!xobjects.isDictionary()) return;
    for (auto const &key : xobjects.getKeys()) {
        QPDFObjectHandle object = xobjects.getKey(key);
        if (!object.isStream()) continue;
        if (object.isIndirect() && !seen.insert(object.getObjGen()).second) continue;
        QPDFObjectHandle dict = object.getDict();
        QPDFObjectHandle subtype = dict.getKey("/Subtype");
        if (subtype.isNameAndEquals("/Image")) {
            visit(object);
            QPDFObjectHandle mask = dict.getKey("/SMask");
            if (mask.isStream()) visit(mask);
        } else if (subtype.isNameAndEquals("/Form")) {
            forEachPicture(dict.getKey("/Resources"), visit, seen, depth + 1);
        }
    }
}

template <typename F> void forEachPicture(QPDFPageObjectHelper &helper, F const &visit) {
    std::set<QPDFObjGen> seen;
    forEachPicture(helper.getAttribute("/Resources", false), visit, seen, 0);
}

// A picture's declared size, each side clamped to 0…2³¹−1.
void declaredSize(QPDFObjectHandle picture, int &width, int &height) {
    auto side = [](QPDFObjectHandle value) {
        if (!value.isInteger()) return 0;
        long long v = value.getIntValue();
        return v < 0 ? 0 : v > 0x7fffffff ? 0x7fffffff : int(v);
    };
    QPDFObjectHandle dict = picture.getDict();
    width = side(dict.getKey("/Width"));
    height = side(dict.getKey("/Height"));
}

// How a walk through a JPEG file's markers ended.
enum class Walk { endOfImage, stopped, ranOut, damaged };

// Walks `jpeg`'s markers from SOI by their lengths, the entropy-coded data
// after each SOS scanned for the next marker (a stuffed 0xFF00 and restart
// markers are data). `visit(marker, payload, size)` sees every marker
// segment and stops the walk by returning false.
template <typename F> Walk walkMarkers(std::vector<uint8_t> const &jpeg, F const &visit) {
    size_t n = jpeg.size(), at = 2;
    if (n < 2) return Walk::ranOut;
    if (jpeg[0] != 0xFF || jpeg[1] != 0xD8) return Walk::damaged;
    while (at < n) {
        if (jpeg[at] != 0xFF) return Walk::damaged;
        while (at < n && jpeg[at] == 0xFF) at++;  // fill bytes
        if (at >= n) return Walk::ranOut;
        uint8_t marker = jpeg[at++];
        if (marker == 0xD9) return Walk::endOfImage;
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;
        if (at + 2 > n) return Walk::ranOut;
        size_t length = size_t(jpeg[at]) << 8 | jpeg[at + 1];
        if (length < 2) return Walk::damaged;
        if (at + length > n) return Walk::ranOut;
        if (!visit(marker, jpeg.data() + at + 2, length - 2)) return Walk::stopped;
        at += length;
        if (marker != 0xDA) continue;
        while (at + 1 < n && !(jpeg[at] == 0xFF && jpeg[at + 1] != 0 && !(jpeg[at + 1] >= 0xD0 && jpeg[at + 1] <= 0xD7))) at++;
        if (at + 1 >= n) return Walk::ranOut;
    }
    return Walk::ranOut;
}

} // namespace

bool jpegMatchesDictionary(QPDFObjectHandle picture, std::string &why) {
    bool encrypted = picture.getOwningQPDF() && picture.getOwningQPDF()->isEncrypted();
    int w = 0, h = 0, declaredWidth = 0, declaredHeight = 0;
    bool found = false;
    // The frame header is in the first few kilobytes of nearly every file:
    // 64 KiB are read, and up to 1 MiB only when they end before it.
    for (size_t limit : {size_t(64) << 10, size_t(1) << 20}) {
        Piped head = pipe(picture, qpdf_dl_none, limit, limit, !encrypted);
        Walk walk = walkMarkers(head.bytes, [&](uint8_t marker, uint8_t const *payload, size_t size) {
            bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
            if (frame && size >= 5) {
                h = int(payload[1]) << 8 | payload[2];
                w = int(payload[3]) << 8 | payload[4];
                found = true;
            }
            return !frame && marker != 0xDA;  // no frame after the first scan
        });
        if (found || walk != Walk::ranOut || !head.overflowed) break;
    }
    declaredSize(picture, declaredWidth, declaredHeight);
    if (!found) {
        why = "a JPEG picture whose frame header cannot be read";
        return false;
    }
    if (w != declaredWidth || h != declaredHeight) {
        why = "a JPEG picture of another size than its dictionary says";
        return false;
    }
    return true;
}

namespace {

bool isJPEG(QPDFObjectHandle picture) {
    QPDFObjectHandle filter = picture.getDict().getKey("/Filter");
    if (filter.isArray() && filter.getArrayNItems() == 1) filter = filter.getArrayItem(0);
    return filter.isNameAndEquals("/DCTDecode") || filter.isNameAndEquals("/DCT");
}

} // namespace

void largestPicture(QPDFPageObjectHelper &helper, int &width, int &height) {
    width = 0;
    height = 0;
    forEachPicture(helper, [&](QPDFObjectHandle picture) {
        int w = 0, h = 0;
        declaredSize(picture, w, h);
        if (uint64_t(w) * uint64_t(h) > uint64_t(width) * uint64_t(height)) {
            width = w;
            height = h;
        }
    });
}

void checkPictures(QPDFPageObjectHelper &helper) {
    bool encrypted = helper.getObjectHandle().getOwningQPDF() && helper.getObjectHandle().getOwningQPDF()->isEncrypted();
    forEachPicture(helper, [&](QPDFObjectHandle picture) {
        if (!isJPEG(picture)) return;
        int w = 0, h = 0;
        declaredSize(picture, w, h);
        Piped stored = pipe(picture, qpdf_dl_none, size_t(256) << 20, 0, !encrypted);
        auto every = [](uint8_t, uint8_t const *, size_t) { return true; };
        if (!stored.piped || stored.overflowed || walkMarkers(stored.bytes, every) != Walk::endOfImage) {
            throw Failure(MH_PDF_DAMAGED, "its JPEG picture of " + std::to_string(w) + "×" + std::to_string(h)
                          + " is truncated or damaged (it does not reach its end-of-image marker)");
        }
        char why[200] = {0};
        if (mh_pdf_jpeg_damage(stored.bytes.data(), stored.bytes.size(), why, sizeof why)) {
            throw Failure(MH_PDF_DAMAGED, "its JPEG picture of " + std::to_string(w) + "×" + std::to_string(h)
                          + " is damaged: " + why);
        }
    });
}

} // namespace mhpdf
