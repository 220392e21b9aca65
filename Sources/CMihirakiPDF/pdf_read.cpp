// Mihiraki's PDF reader over qpdf: see include/CMihirakiPDF.h. This file
// holds its C face and the analysis of a page's content; pdf_streams.cpp,
// pdf_jpx.cpp and pdf_pictures.cpp the rest.
#include "pdf_internal.hpp"

#include <qpdf/Buffer.hh>
#include <qpdf/Pipeline.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFLogger.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <array>
#include <memory>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

const char samplesMagic[8] = {'M', 'H', 'P', 'D', 'F', 'P', 'X', '1'};

namespace {

using namespace mhpdf;

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

// A sample container of `width × height × channels` bytes, its header written.
std::vector<uint8_t> samplesContainer(uint32_t width, uint32_t height, uint32_t channels) {
    std::vector<uint8_t> output(20 + size_t(width) * size_t(height) * size_t(channels));
    std::memcpy(output.data(), samplesMagic, 8);
    uint32_t fields[3] = {width, height, channels};
    for (int f = 0; f < 3; f++) for (int b = 0; b < 4; b++) output[size_t(8 + 4 * f + b)] = uint8_t(fields[f] >> (8 * b));
    return output;
}

struct Document {
    QPDF qpdf;
    std::vector<QPDFPageObjectHelper> pages;
    std::vector<std::optional<Analysis>> analyses;
    bool inheritedPushed = false;
    std::mutex lock;

    Analysis const &analyse(int index) {
        if (index < 0 || size_t(index) >= pages.size()) throw Failure(MH_PDF_DAMAGED, "no such page");
        auto &slot = analyses[size_t(index)];
        if (!slot) slot = analysis(pages[size_t(index)]);
        return *slot;
    }

    static Analysis analysis(QPDFPageObjectHelper &helper) {
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
};

// One sample of `bits` bits at sample position `k` of a packed row.
inline unsigned sampleAt(uint8_t const *row, size_t k, int bits) {
    switch (bits) {
    case 8: return row[k];
    case 16: return unsigned(row[2 * k]) << 8 | row[2 * k + 1];
    default: {
        size_t bit = k * size_t(bits);
        unsigned byte = row[bit / 8];
        return (byte >> (8 - bits - int(bit % 8))) & ((1u << bits) - 1);
    }
    }
}

// A sample scaled to 8 bits as libpng expands and scales it, so a PDF of a
// PNG's pixels reads the same as the PNG.
inline uint8_t to8(unsigned v, int bits) {
    switch (bits) {
    case 1: return uint8_t(v * 255);
    case 2: return uint8_t(v * 85);
    case 4: return uint8_t(v * 17);
    case 16: return uint8_t((v * 255 + 32767) / 65535);
    default: return uint8_t(v);
    }
}

inline void cmykToRGB(uint8_t c, uint8_t m, uint8_t y, uint8_t k, uint8_t *out) {
    out[0] = uint8_t(((255 - c) * (255 - k) + 127) / 255);
    out[1] = uint8_t(((255 - m) * (255 - k) + 127) / 255);
    out[2] = uint8_t(((255 - y) * (255 - k) + 127) / 255);
}


} // namespace

struct mh_pdf {
    Document document;
};

extern "C" mh_pdf *mh_pdf_open(const char *path, mh_pdf_info *info, int *status, char *message, size_t message_size) {
    auto *pdf = new (std::nothrow) mh_pdf;
    if (!pdf) { *status = MH_PDF_TOO_LARGE; put(message, message_size, "out of memory"); return nullptr; }
    *status = guarded(message, message_size, [&] {
        QPDF &q = pdf->document.qpdf;
        silence(q);
        q.processFile(path);
        pdf->document.pages = QPDFPageDocumentHelper(q).getAllPages();
        // A damaged file qpdf recovered may have lost pages: never drop one without a word.
        QPDFObjectHandle count = q.getRoot().getKey("/Pages").getKey("/Count");
        if (count.isInteger() && count.getIntValue() != (long long)pdf->document.pages.size()) {
            throw Failure(MH_PDF_DAMAGED, "its page tree counts " + std::to_string(count.getIntValue()) + " pages but "
                          + std::to_string(pdf->document.pages.size()) + " can be read");
        }
        pdf->document.analyses.resize(pdf->document.pages.size());
        *info = mh_pdf_info{};
        info->pages = int(pdf->document.pages.size());
        QPDFObjectHandle root = q.getRoot();
        QPDFObjectHandle direction = root.getKey("/ViewerPreferences").getKey("/Direction");
        info->right_to_left = direction.isNameAndEquals("/R2L") ? 1 : 0;
        QPDFObjectHandle layout = root.getKey("/PageLayout");
        info->page_layout = layout.isNameAndEquals("/TwoPageLeft") ? 1 : layout.isNameAndEquals("/TwoPageRight") ? 2 : 0;
        return MH_PDF_OK;
    });
    if (*status != MH_PDF_OK) { delete pdf; return nullptr; }
    return pdf;
}

extern "C" void mh_pdf_close(mh_pdf *pdf) { delete pdf; }

extern "C" int mh_pdf_page_info(mh_pdf *pdf, int index, mh_pdf_page *page, char *message, size_t message_size) {
    std::lock_guard<std::mutex> hold(pdf->document.lock);
    return guarded(message, message_size, [&] {
        *page = pdf->document.analyse(index).page;
        return MH_PDF_OK;
    });
}

// `bytes` given to the caller, owned until mh_pdf_bytes_free.
static int handOver(std::vector<uint8_t> &&bytes, mh_pdf_bytes *result) {
    auto *owner = new std::vector<uint8_t>(std::move(bytes));
    *result = mh_pdf_bytes{owner->data(), owner->size(), owner};
    return MH_PDF_OK;
}

extern "C" void mh_pdf_bytes_free(mh_pdf_bytes *bytes) {
    delete static_cast<std::vector<uint8_t> *>(bytes->owner);
    *bytes = mh_pdf_bytes{};
}

extern "C" int mh_pdf_page_image(mh_pdf *pdf, int index, uint64_t max_pixels, size_t limit, mh_pdf_bytes *result,
                                 char *message, size_t message_size) {
    *result = mh_pdf_bytes{};
    std::lock_guard<std::mutex> hold(pdf->document.lock);
    return guarded(message, message_size, [&] {
        Analysis const &a = pdf->document.analyse(index);
        if (!a.page.single_image) throw Failure(MH_PDF_UNSUPPORTED, std::string("not a single picture (") + a.page.reason + ")");
        uint64_t width = uint64_t(a.page.image_width), height = uint64_t(a.page.image_height);
        if (width * height > max_pixels) {
            throw Failure(MH_PDF_TOO_LARGE, std::to_string(width) + "×" + std::to_string(height)
                          + " is more than the " + std::to_string(max_pixels) + "-pixel limit (--max-pixels)");
        }
        QPDFObjectHandle image = a.image;
        auto hand = [&](std::vector<uint8_t> &&bytes) { return handOver(std::move(bytes), result); };
        if (a.page.jpeg) {
            // The stream as stored (decrypted), straight into one buffer of its declared length.
            QPDFObjectHandle length = image.getDict().getKey("/Length");
            size_t declared = length.isInteger() && length.getIntValue() > 0 ? size_t(length.getIntValue()) : 0;
            Piped stored = pipe(image, qpdf_dl_none, limit, std::min<size_t>(declared, size_t(64) << 20),
                                !pdf->document.qpdf.isEncrypted());
            if (!stored.piped && !stored.overflowed) throw Failure(MH_PDF_DAMAGED, "its picture's stream cannot be read");
            return hand(std::move(stored.bytes));
        }
        if (a.jpx) {
            Jpx decoded = jpx(rawStream(image), true);
            std::vector<uint8_t> output = samplesContainer(uint32_t(width), uint32_t(height), uint32_t(a.page.channels));
            std::memcpy(output.data() + 20, decoded.samples.data(), decoded.samples.size());
            return hand(std::move(output));
        }
        size_t rowBytes = (size_t(width) * size_t(a.components) * size_t(a.bits) + 7) / 8;
        size_t expected = rowBytes * size_t(height);
        Piped inflated = pipe(image, qpdf_dl_specialized, expected, expected);
        if (inflated.overflowed) throw Failure(MH_PDF_TOO_LARGE, "its picture's stream inflates past the picture's size");
        if (!inflated.piped || !inflated.attempted) throw Failure(MH_PDF_DAMAGED, "its picture's stream cannot be decoded");
        if (inflated.bytes.size() < expected) throw Failure(MH_PDF_DAMAGED, "its picture's stream ends early");

        int channels = a.page.channels;
        // The soft mask's samples, one per pixel, scaled to 8 bits.
        std::vector<uint8_t> alpha;
        QPDFObjectHandle softMask = a.softMask;
        if (softMask.isInitialized() && !softMask.isNull()) {
            size_t maskRow = (size_t(width) * size_t(a.softMaskBits) + 7) / 8;
            Piped mask = pipe(softMask, qpdf_dl_specialized, maskRow * size_t(height), maskRow * size_t(height));
            if (!mask.piped || mask.overflowed) {
                throw Failure(MH_PDF_DAMAGED, "its picture's soft mask cannot be decoded, or inflates past its size");
            }
            if (mask.bytes.size() < maskRow * size_t(height)) throw Failure(MH_PDF_DAMAGED, "its picture's soft mask ends early");
            alpha.resize(size_t(width) * size_t(height));
            for (size_t y = 0; y < height; y++) {
                for (size_t x = 0; x < width; x++) {
                    alpha[y * size_t(width) + x] = to8(sampleAt(mask.bytes.data() + y * maskRow, x, a.softMaskBits), a.softMaskBits);
                }
            }
        }
        std::vector<uint8_t> output = samplesContainer(uint32_t(width), uint32_t(height), uint32_t(channels));
        uint8_t *pixel = output.data() + 20;
        double top = double((1u << a.bits) - 1);
        for (size_t y = 0; y < height; y++) {
            uint8_t const *row = inflated.bytes.data() + y * rowBytes;
            for (size_t x = 0; x < width; x++) {
                uint8_t samples[4];
                if (a.indexed) {
                    unsigned index = sampleAt(row, x, a.bits);
                    size_t entries = a.palette.size() / size_t(a.baseComponents);
                    if (index >= entries) index = unsigned(entries - 1);
                    std::memcpy(samples, a.palette.data() + index * size_t(a.baseComponents), size_t(a.baseComponents));
                } else {
                    for (int c = 0; c < a.components; c++) {
                        unsigned v = sampleAt(row, x * size_t(a.components) + size_t(c), a.bits);
                        if (a.decode.empty()) {
                            samples[c] = to8(v, a.bits);
                        } else {
                            double low = a.decode[size_t(2 * c)], high = a.decode[size_t(2 * c + 1)];
                            double value = (low + double(v) * (high - low) / top) * 255.0;
                            samples[c] = uint8_t(std::lround(std::min(255.0, std::max(0.0, value))));
                        }
                    }
                }
                int n = a.indexed ? a.baseComponents : a.components;
                if (n == 1) {
                    *pixel++ = samples[0];
                } else if (n == 3) {
                    std::memcpy(pixel, samples, 3);
                    pixel += 3;
                } else {
                    cmykToRGB(samples[0], samples[1], samples[2], samples[3], pixel);
                    pixel += 3;
                }
                if (!alpha.empty()) *pixel++ = alpha[y * size_t(width) + x];
            }
        }
        std::vector<uint8_t>().swap(inflated.bytes);
        return hand(std::move(output));
    });
}

extern "C" int mh_pdf_page_document(mh_pdf *pdf, int index, mh_pdf_bytes *result, char *message, size_t message_size) {
    *result = mh_pdf_bytes{};
    std::lock_guard<std::mutex> hold(pdf->document.lock);
    return guarded(message, message_size, [&] {
        Document &document = pdf->document;
        if (index < 0 || size_t(index) >= document.pages.size()) throw Failure(MH_PDF_DAMAGED, "no such page");
        checkPictures(document.pages[size_t(index)]);
        if (!document.inheritedPushed) {
            document.qpdf.pushInheritedAttributesToPage();
            document.inheritedPushed = true;
        }
        QPDF single;
        silence(single);
        single.emptyPDF();
        QPDFPageDocumentHelper(single).addPage(document.pages[size_t(index)], false);
        QPDFWriter writer(single);
        writer.setOutputMemory();
        writer.setStaticID(true);
        writer.setPreserveEncryption(false);
        writer.write();
        auto buffer = writer.getBufferSharedPointer();
        return handOver(std::vector<uint8_t>(buffer->getBuffer(), buffer->getBuffer() + buffer->getSize()), result);
    });
}
