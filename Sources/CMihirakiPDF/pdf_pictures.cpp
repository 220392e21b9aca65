// Mihiraki's PDF reader: the pictures a page draws, measured and checked
// before a rasteriser sees them.
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

// True when `jpeg` is a JPEG file that reaches its end-of-image marker:
// markers walked by their lengths, entropy-coded data scanned for the next
// marker (a stuffed 0xFF00 and restart markers are data).
bool reachesEnd(std::vector<uint8_t> const &jpeg) {
    size_t n = jpeg.size(), at = 2;
    if (n < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return false;
    while (at < n) {
        if (jpeg[at] != 0xFF) return false;
        while (at < n && jpeg[at] == 0xFF) at++;  // fill bytes
        if (at >= n) return false;
        uint8_t marker = jpeg[at++];
        if (marker == 0xD9) return true;
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;
        if (at + 2 > n) return false;
        size_t length = size_t(jpeg[at]) << 8 | jpeg[at + 1];
        if (length < 2 || at + length > n) return false;
        at += length;
        if (marker != 0xDA) continue;
        // Entropy-coded data runs to the next marker that is not a restart.
        while (at + 1 < n && !(jpeg[at] == 0xFF && jpeg[at + 1] != 0 && !(jpeg[at + 1] >= 0xD0 && jpeg[at + 1] <= 0xD7))) at++;
        if (at + 1 >= n) return false;
    }
    return false;
}

// The frame size a JPEG file's SOF marker gives; false when `jpeg` ends before one.
bool frameSize(std::vector<uint8_t> const &jpeg, int &width, int &height) {
    size_t n = jpeg.size(), at = 2;
    if (n < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return false;
    while (at + 4 <= n && jpeg[at] == 0xFF) {
        uint8_t marker = jpeg[at + 1];
        if (marker == 0xFF) { at++; continue; }
        size_t length = size_t(jpeg[at + 2]) << 8 | jpeg[at + 3];
        bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (frame) {
            if (length < 7 || at + 9 > n) return false;
            height = int(jpeg[at + 5]) << 8 | jpeg[at + 6];
            width = int(jpeg[at + 7]) << 8 | jpeg[at + 8];
            return true;
        }
        if (marker == 0xDA || marker == 0xD9 || length < 2) return false;
        at += 2 + length;
    }
    return false;
}

} // namespace

bool jpegMatchesDictionary(QPDFObjectHandle picture, std::string &why) {
    bool encrypted = picture.getOwningQPDF() && picture.getOwningQPDF()->isEncrypted();
    Piped head = pipe(picture, qpdf_dl_none, size_t(1) << 20, size_t(64) << 10, !encrypted);
    int w = 0, h = 0, declaredWidth = 0, declaredHeight = 0;
    declaredSize(picture, declaredWidth, declaredHeight);
    if (!frameSize(head.bytes, w, h)) {
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
        if (!stored.piped || stored.overflowed || !reachesEnd(stored.bytes)) {
            throw Failure(MH_PDF_DAMAGED, "its JPEG picture of " + std::to_string(w) + "×" + std::to_string(h)
                          + " is truncated or damaged (it does not reach its end-of-image marker)");
        }
    });
}

} // namespace mhpdf
