// Mihiraki's PDF reader: streams piped with a bound, content measured before it is parsed.
#include "pdf_internal.hpp"

#include <qpdf/Pipeline.hh>
#include <qpdf/QPDFLogger.hh>

#include <algorithm>
#include <cstdio>

namespace mhpdf {

void put(char *message, size_t size, std::string text) {
    if (!message || size == 0) return;
    for (auto &c : text) if (c == '\n' || c == '\r') c = ' ';
    std::snprintf(message, size, "%s", text.c_str());
}

// No message of qpdf's reaches stderr: its logger discards, its warnings are off.
void silence(QPDF &q) {
    auto logger = QPDFLogger::create();
    logger->setInfo(logger->discard());
    logger->setWarn(logger->discard());
    logger->setError(logger->discard());
    q.setLogger(logger);
    q.setSuppressWarnings(true);
}

namespace {

// Collects a stream's decoded bytes, refusing more than `limit`.
struct Collect : Pipeline {
    std::vector<uint8_t> bytes;
    size_t limit;
    bool overflowed = false;  // qpdf catches what write throws: this says why it stopped
    // Stop reading once `limit` bytes are in: only where no decryption is in
    // the pipeline (an exception through qpdf's GnuTLS decryption crashes it).
    bool stopEarly = false;
    Collect(size_t limit, size_t expected) : Pipeline("mihiraki-collect", nullptr), limit(limit) {
        bytes.reserve(std::min(limit, expected));
    }
    void write(unsigned char const *data, size_t length) override {
        if (overflowed || length > limit - bytes.size()) {
            if (!overflowed) bytes.insert(bytes.end(), data, data + (limit - bytes.size()));
            overflowed = true;
            if (stopEarly) throw Failure(MH_PDF_OK, "enough");
            // Otherwise not thrown: an exception unwinding through qpdf's
            // decryption pipeline leaves it half torn down (a crash in GnuTLS,
            // found by fuzzing). The rest is discarded; the caller decides.
            return;
        }
        bytes.insert(bytes.end(), data, data + length);
    }
    void finish() override {}
};

// Counts a stream's decoded bytes without keeping them, up to `limit`.
struct Count : Pipeline {
    size_t count = 0, limit;
    bool over = false;
    bool stopEarly;  // as Collect's: only where no decryption is in the pipeline
    Count(size_t limit, bool stopEarly) : Pipeline("mihiraki-count", nullptr), limit(limit), stopEarly(stopEarly) {}
    void write(unsigned char const *, size_t length) override {
        if (over) return;
        count += length;
        if (count > limit) {
            over = true;
            if (stopEarly) throw Failure(MH_PDF_OK, "enough");
        }
    }
    void finish() override {}
};

} // namespace

void checkContentSize(QPDFPageObjectHelper &helper) {
    QPDFObjectHandle contents = helper.getObjectHandle().getKey("/Contents");
    std::vector<QPDFObjectHandle> streams = contents.isArray() ? contents.getArrayAsVector() : std::vector<QPDFObjectHandle>{contents};
    QPDF *owner = helper.getObjectHandle().getOwningQPDF();
    bool encrypted = owner && owner->isEncrypted();
    size_t total = 0;
    for (auto &stream : streams) {
        if (!stream.isStream()) continue;
        Count count(kContentLimit - total, !encrypted);
        try {
            stream.pipeStreamData(&count, nullptr, 0, qpdf_dl_generalized, true, false);
        } catch (Failure const &) {
        }
        if (count.over) {
            throw Failure(MH_PDF_TOO_LARGE, "its content inflates past " + std::to_string(kContentLimit >> 20)
                          + " MiB, the bound on one page's content");
        }
        total += count.count;
    }
}

Piped pipe(QPDFObjectHandle stream, qpdf_stream_decode_level_e level, size_t limit, size_t expected,
           bool stopEarly) {
    Collect collect(limit, expected);
    collect.stopEarly = stopEarly;
    Piped result;
    try {
        result.piped = stream.pipeStreamData(&collect, &result.attempted, 0, level, true, false);
    } catch (Failure const &) {
        result.piped = false;
    }
    result.overflowed = collect.overflowed;
    result.bytes = std::move(collect.bytes);
    return result;
}

// A stream as stored (decrypted, not decoded).
std::vector<uint8_t> rawStream(QPDFObjectHandle stream) {
    Piped raw = pipe(stream, qpdf_dl_none, size_t(1) << 31, 0);
    if (!raw.piped || raw.overflowed) throw Failure(MH_PDF_DAMAGED, "its picture's stream cannot be read");
    return std::move(raw.bytes);
}

} // namespace mhpdf
