// Mihiraki's PDF reader: what a page holds, found from its content and
// resources: one picture over the whole page (read as it is stored) or
// anything else (drawn by the rasteriser), and why.
#include "pdf_internal.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace mhpdf {

namespace {

// The content operators that paint nothing: graphics state, marked content, compatibility.
bool paintsNothing(std::string const &op) {
    static const char *ops[] = {"gs", "w", "J", "j", "M", "d", "ri", "i", "BMC", "BDC", "EMC", "MP", "DP", "BX", "EX"};
    for (auto o : ops) if (op == o) return true;
    return false;
}

// Walks a page's content: graphics state and exactly one `Do`, nothing painted otherwise.
struct ContentScan : QPDFObjectHandle::ParserCallbacks {
    std::vector<QPDFObjectHandle> operands;
    std::vector<Matrix> stack;
    Matrix ctm{1, 0, 0, 1, 0, 0};
    Matrix at{};
    std::string name;
    int draws = 0;
    size_t operators = 0;
    std::string other;
    std::vector<std::string> states;  // the ExtGState names `gs` sets

    void handleObject(QPDFObjectHandle object) override {
        if (!object.isOperator()) {
            if (operands.size() < 16) operands.push_back(object);
            return;
        }
        std::string op = object.getOperatorValue();
        if (++operators > 100000) { stop("more than 100000 operators"); return; }
        if (op == "q") {
            if (stack.size() >= 256) { stop("graphics states nested too deep"); return; }
            stack.push_back(ctm);
        } else if (op == "Q") {
            if (!stack.empty()) { ctm = stack.back(); stack.pop_back(); }
        } else if (op == "cm") {
            if (operands.size() != 6) { stop("a malformed cm"); return; }
            Matrix m{};
            for (int k = 0; k < 6; k++) {
                if (!operands[k].isNumber()) { stop("a malformed cm"); return; }
                m[k] = operands[k].getNumericValue();
            }
            Matrix c = ctm;
            ctm = {m[0] * c[0] + m[1] * c[2], m[0] * c[1] + m[1] * c[3],
                   m[2] * c[0] + m[3] * c[2], m[2] * c[1] + m[3] * c[3],
                   m[4] * c[0] + m[5] * c[2] + c[4], m[4] * c[1] + m[5] * c[3] + c[5]};
        } else if (op == "gs") {
            if (operands.size() == 1 && operands[0].isName() && states.size() < 64) states.push_back(operands[0].getName());
        } else if (op == "Do") {
            if (operands.size() != 1 || !operands[0].isName()) { stop("a malformed Do"); return; }
            if (++draws > 1) { stop("several pictures"); return; }
            name = operands[0].getName();
            at = ctm;
        } else if (!paintsNothing(op)) {
            bool text = op == "BT" || op == "Tj" || op == "TJ" || op == "'" || op == "\"";
            stop(text ? "text" : "vector drawing");
            return;
        }
        operands.clear();
    }
    void handleEOF() override {}
    void stop(std::string const &why) {
        if (other.empty()) other = why;
        terminateParsing();
    }
};

int componentsOf(QPDFObjectHandle space, int depth = 0) {
    if (depth > 4) return 0;
    if (space.isName()) {
        std::string n = space.getName();
        if (n == "/DeviceGray" || n == "/G" || n == "/CalGray") return 1;
        if (n == "/DeviceRGB" || n == "/RGB" || n == "/CalRGB") return 3;
        if (n == "/DeviceCMYK" || n == "/CMYK") return 4;
        return 0;
    }
    if (space.isArray() && space.getArrayNItems() >= 1 && space.getArrayItem(0).isName()) {
        std::string n = space.getArrayItem(0).getName();
        if (n == "/CalGray") return 1;
        if (n == "/CalRGB") return 3;
        if (n == "/ICCBased" && space.getArrayNItems() >= 2 && space.getArrayItem(1).isStream()) {
            auto count = space.getArrayItem(1).getDict().getKey("/N");
            if (count.isInteger()) {
                long long c = count.getIntValue();
                if (c == 1 || c == 3 || c == 4) return int(c);
            }
        }
    }
    return 0;
}

} // namespace

Analysis analysePage(QPDFPageObjectHelper &helper) {
    Analysis a;
    mh_pdf_page &page = a.page;
    // The visible page is the CropBox clipped to the MediaBox (ISO 32000 §14.11.2), as
    // pdftoppm and MuPDF show it; a CropBox outside the MediaBox leaves nothing, and
    // the page fails here, where planning and rendering both read it.
    QPDFObjectHandle media = helper.getMediaBox(false);
    if (!media.isRectangle()) throw Failure(MH_PDF_DAMAGED, "it has no page box");
    auto r = media.getArrayAsRectangle();
    double llx = std::min(r.llx, r.urx), urx = std::max(r.llx, r.urx);
    double lly = std::min(r.lly, r.ury), ury = std::max(r.lly, r.ury);
    QPDFObjectHandle crop = helper.getCropBox(false, false);
    if (crop.isRectangle()) {
        auto c = crop.getArrayAsRectangle();
        llx = std::max(llx, std::min(c.llx, c.urx)); urx = std::min(urx, std::max(c.llx, c.urx));
        lly = std::max(lly, std::min(c.lly, c.ury)); ury = std::min(ury, std::max(c.lly, c.ury));
        if (!(urx > llx && ury > lly)) throw Failure(MH_PDF_DAMAGED, "its CropBox lies outside its MediaBox");
    }
    double unit = 1;
    QPDFObjectHandle userUnit = helper.getObjectHandle().getKey("/UserUnit");
    if (userUnit.isNumber() && userUnit.getNumericValue() > 0) unit = userUnit.getNumericValue();
    QPDFObjectHandle rotate = helper.getAttribute("/Rotate", false);
    long long turn = rotate.isInteger() ? rotate.getIntValue() : 0;
    page.rotate = int(((turn % 360) + 360) % 360);
    if (page.rotate % 90 != 0) page.rotate = 0;
    bool swaps = page.rotate == 90 || page.rotate == 270;
    page.width = (swaps ? ury - lly : urx - llx) * unit;
    page.height = (swaps ? urx - llx : ury - lly) * unit;
    if (!(page.width > 0 && page.height > 0) || !std::isfinite(page.width) || !std::isfinite(page.height)) {
        throw Failure(MH_PDF_DAMAGED, "its page box is empty");
    }

    auto reject = [&](std::string const &why) -> Analysis {
        page.single_image = 0;
        std::snprintf(page.reason, sizeof page.reason, "%s", why.c_str());
        return a;
    };
    checkContentSize(helper);
    largestPicture(helper, page.largest_width, page.largest_height);
    ContentScan scan;
    helper.parseContents(&scan);
    if (!scan.other.empty()) return reject(scan.other);
    if (scan.draws == 0) return reject("no picture");
    if (page.rotate != 0) return reject("a rotated page");
    // Annotations are drawn over the page by the rasterisers Mihiraki answers to.
    QPDFObjectHandle annots = helper.getObjectHandle().getKey("/Annots");
    if (annots.isArray() && annots.getArrayNItems() > 0) return reject("annotations");
    // A graphics state that makes the picture see-through or blends it is the rasteriser's to draw.
    QPDFObjectHandle states = helper.getAttribute("/Resources", false).getKey("/ExtGState");
    for (auto const &name : scan.states) {
        QPDFObjectHandle state = states.isDictionary() ? states.getKey(name) : QPDFObjectHandle::newNull();
        if (!state.isDictionary()) return reject("a graphics state that is not there");
        for (char const *key : {"/CA", "/ca"}) {
            QPDFObjectHandle alpha = state.getKey(key);
            if (!alpha.isNull() && !(alpha.isNumber() && alpha.getNumericValue() == 1.0)) return reject("a see-through graphics state");
        }
        QPDFObjectHandle blend = state.getKey("/BM"), mask = state.getKey("/SMask");
        if (!blend.isNull() && !(blend.isNameAndEquals("/Normal") || blend.isNameAndEquals("/Compatible"))) {
            return reject("a blend mode");
        }
        if (!mask.isNull() && !mask.isNameAndEquals("/None")) return reject("a soft mask in the graphics state");
        if (!state.getKey("/TR").isNull() || !state.getKey("/TR2").isNull()) return reject("a transfer function");
    }
    QPDFObjectHandle image = helper.getAttribute("/Resources", false).getKey("/XObject").getKey(scan.name);
    if (!image.isStream() || !image.getDict().getKey("/Subtype").isNameAndEquals("/Image")) return reject("a form, not a picture");
    Matrix m = scan.at;
    if (m[1] != 0 || m[2] != 0 || m[0] <= 0 || m[3] <= 0) return reject("a turned or flipped picture");
    double tolerance = std::max(1.0, 0.005 * std::max(urx - llx, ury - lly));
    if (std::fabs(m[4] - llx) > tolerance || std::fabs(m[5] - lly) > tolerance
        || std::fabs(m[4] + m[0] - urx) > tolerance || std::fabs(m[5] + m[3] - ury) > tolerance) {
        return reject("a picture that does not fill the page");
    }
    QPDFObjectHandle dict = image.getDict();
    QPDFObjectHandle w = dict.getKey("/Width"), h = dict.getKey("/Height");
    if (!w.isInteger() || !h.isInteger() || w.getIntValue() < 1 || h.getIntValue() < 1
        || w.getIntValue() > 1000000 || h.getIntValue() > 1000000) {
        throw Failure(MH_PDF_DAMAGED, "its picture has no valid size");
    }
    page.image_width = int(w.getIntValue());
    page.image_height = int(h.getIntValue());
    if (dict.getKey("/ImageMask").isBool() && dict.getKey("/ImageMask").getBoolValue()) return reject("a stencil mask");
    if (!dict.getKey("/Mask").isNull()) return reject("a picture with a mask");
    QPDFObjectHandle softMask = dict.getKey("/SMask");
    if (!softMask.isNull()) {
        // A soft mask of the picture's own size, gray, not premultiplied, in a filter read here: its alpha.
        if (!softMask.isStream()) return reject("a picture with a malformed soft mask");
        QPDFObjectHandle m = softMask.getDict();
        QPDFObjectHandle mw = m.getKey("/Width"), mh = m.getKey("/Height"), mb = m.getKey("/BitsPerComponent");
        QPDFObjectHandle mf = m.getKey("/Filter");
        bool plainFilter = mf.isNull() || mf.isNameAndEquals("/FlateDecode") || mf.isNameAndEquals("/Fl");
        if (!mw.isInteger() || !mh.isInteger() || mw.getIntValue() != page.image_width || mh.getIntValue() != page.image_height
            || !mb.isInteger() || !(mb.getIntValue() == 8 || mb.getIntValue() == 16 || mb.getIntValue() == 1
                                    || mb.getIntValue() == 2 || mb.getIntValue() == 4)
            || !m.getKey("/Matte").isNull() || !m.getKey("/Decode").isNull() || !plainFilter) {
            return reject("a picture with a soft mask of another size or kind");
        }
        a.softMask = softMask;
        a.softMaskBits = int(mb.getIntValue());
    }

    std::vector<std::string> filters;
    QPDFObjectHandle filter = dict.getKey("/Filter");
    if (filter.isName()) filters.push_back(filter.getName());
    else if (filter.isArray()) for (auto &f : filter.getArrayAsVector()) filters.push_back(f.isName() ? f.getName() : "?");
    for (auto &f : filters) {
        if (f == "/DCTDecode" || f == "/DCT") {
            if (filters.size() != 1) return reject("a JPEG picture under another filter");
            // A Decode array other than [0 1 …] inverts or remaps the samples: the rasteriser's to draw.
            QPDFObjectHandle decode = dict.getKey("/Decode");
            if (decode.isArray()) {
                for (int k = 0; k < decode.getArrayNItems(); k++) {
                    QPDFObjectHandle v = decode.getArrayItem(k);
                    if (!v.isNumber() || v.getNumericValue() != (k % 2 ? 1.0 : 0.0)) return reject("a JPEG picture with a Decode array");
                }
            }
            std::string why;
            if (!jpegMatchesDictionary(image, why)) return reject(why);
            page.jpeg = 1;
        } else if (f == "/JPXDecode") {
            if (filters.size() != 1) return reject("a JPEG 2000 picture under another filter");
            a.jpx = true;
        } else if (f == "/CCITTFaxDecode" || f == "/CCF" || f == "/JBIG2Decode") {
            return reject("a fax (CCITT or JBIG2) picture");
        } else if (!(f == "/FlateDecode" || f == "/Fl" || f == "/LZWDecode" || f == "/LZW" || f == "/RunLengthDecode"
                     || f == "/RL" || f == "/ASCII85Decode" || f == "/A85" || f == "/ASCIIHexDecode" || f == "/AHx")) {
            return reject("a picture under an unknown filter");
        }
    }
    if (a.jpx) {
        // The stream's own header says the size and components; the dictionary's may be absent.
        std::vector<uint8_t> raw = rawStream(image);
        Jpx header = jpx(raw, false);
        if (header.width != page.image_width || header.height != page.image_height) {
            throw Failure(MH_PDF_DAMAGED, "its JPEG 2000 picture's size is not the one its dictionary gives");
        }
        if (!header.why.empty()) return reject(header.why);
        a.components = header.components;
        if (a.softMask.isInitialized()) return reject("a JPEG 2000 picture with a soft mask");
    } else if (!page.jpeg) {
        QPDFObjectHandle space = dict.getKey("/ColorSpace");
        QPDFObjectHandle bits = dict.getKey("/BitsPerComponent");
        a.bits = bits.isInteger() ? int(bits.getIntValue()) : 0;
        if (space.isArray() && space.getArrayNItems() == 4 && space.getArrayItem(0).isName()
            && (space.getArrayItem(0).getName() == "/Indexed" || space.getArrayItem(0).getName() == "/I")) {
            a.indexed = true;
            a.components = 1;
            a.baseComponents = componentsOf(space.getArrayItem(1));
            QPDFObjectHandle hival = space.getArrayItem(2), lookup = space.getArrayItem(3);
            if (a.baseComponents == 0 || !hival.isInteger() || hival.getIntValue() < 0 || hival.getIntValue() > 255) {
                return reject("a picture in a colour space Mihiraki does not read");
            }
            std::string table;
            if (lookup.isString()) table = lookup.getStringValue();
            else if (lookup.isStream()) {
                auto data = lookup.getStreamData(qpdf_dl_specialized);
                table.assign(reinterpret_cast<char const *>(data->getBuffer()), data->getSize());
            } else throw Failure(MH_PDF_DAMAGED, "its picture's palette is missing");
            size_t entries = size_t(hival.getIntValue()) + 1;
            a.palette.assign(entries * size_t(a.baseComponents), 0);
            std::memcpy(a.palette.data(), table.data(), std::min(table.size(), a.palette.size()));
            if (a.bits != 1 && a.bits != 2 && a.bits != 4 && a.bits != 8) return reject("an indexed picture of unusual depth");
        } else {
            a.components = componentsOf(space);
            if (a.components == 0) return reject("a picture in a colour space Mihiraki does not read");
            if (a.bits != 1 && a.bits != 2 && a.bits != 4 && a.bits != 8 && a.bits != 16) {
                throw Failure(MH_PDF_DAMAGED, "its picture has no valid BitsPerComponent");
            }
        }
        QPDFObjectHandle decode = dict.getKey("/Decode");
        if (decode.isArray() && decode.getArrayNItems() == 2 * a.components) {
            std::vector<double> values;
            bool plain = true;
            double top = a.indexed ? double((1 << a.bits) - 1) : 1.0;
            for (int k = 0; k < 2 * a.components; k++) {
                auto v = decode.getArrayItem(k);
                values.push_back(v.isNumber() ? v.getNumericValue() : 0);
                if (values.back() != (k % 2 ? top : 0.0)) plain = false;
            }
            if (!plain) {
                if (a.indexed) return reject("an indexed picture with a Decode array");
                a.decode = values;
            }
        }
    }
    a.image = image;
    page.channels = a.indexed ? (a.baseComponents == 1 ? 1 : 3) : (a.components == 1 ? 1 : 3);
    if (a.jpx) page.channels = a.components == 1 ? 1 : 3;
    if (a.softMask.isInitialized() && !a.softMask.isNull()) page.channels += 1;  // gray+alpha or RGBA
    page.single_image = 1;
    return a;
}

} // namespace mhpdf
