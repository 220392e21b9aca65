// Mihiraki's PDF reader over qpdf: see include/CMihirakiPDF.h. This file
// holds its C face and a picture's samples; pdf_analysis.cpp (what a page
// holds), pdf_streams.cpp, pdf_jpx.cpp and pdf_pictures.cpp the rest.
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
#include <sys/stat.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

const char samplesMagic[8] = {'M', 'H', 'P', 'D', 'F', 'P', 'X', '1'};

namespace {

using namespace mhpdf;

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
        if (!slot) slot = analysePage(pages[size_t(index)]);
        return *slot;
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

// The largest file whose damaged cross-reference table qpdf may rebuild.
// Rebuilding reads the whole file (about 50 MB a second here): a file of
// 64 GiB, a valid PDF's start then zeros (a sparse file), ran `plan` for
// nine minutes before it was stopped (a damaged 256 MiB takes 5.5 s: the
// whole would take over twenty). Past this a damaged file is refused at once.
static const long long recoveryLimit = 1LL << 30;

extern "C" mh_pdf *mh_pdf_open(const char *path, mh_pdf_info *info, int *status, char *message, size_t message_size) {
    auto *pdf = new (std::nothrow) mh_pdf;
    if (!pdf) { *status = MH_PDF_TOO_LARGE; put(message, message_size, "out of memory"); return nullptr; }
    *status = guarded(message, message_size, [&] {
        QPDF &q = pdf->document.qpdf;
        silence(q);
        struct stat file;
        const bool large = stat(path, &file) == 0 && (long long)file.st_size > recoveryLimit;
        if (large) q.setAttemptRecovery(false);
        try {
            q.processFile(path);
        } catch (QPDFExc const &error) {
            if (!large) throw;
            throw Failure(MH_PDF_DAMAGED, "its cross-reference table cannot be read (" + error.getMessageDetail()
                          + "), and at " + std::to_string((long long)file.st_size >> 30)
                          + " GiB the file is too large to rebuild it from (over "
                          + std::to_string(recoveryLimit >> 30) + " GiB)");
        }
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
