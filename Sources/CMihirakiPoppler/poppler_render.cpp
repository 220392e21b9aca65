// Mihiraki's PDF rasteriser over poppler-cpp: see include/CMihirakiPoppler.h.
#include "CMihirakiPoppler.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-image.h>
#include <poppler/cpp/poppler-page-renderer.h>
#include <poppler/cpp/poppler-page.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

// poppler's messages, per thread, instead of stderr: the first one (what
// opening a document that fails says) and, while a page is drawn, each of
// them (the first 64), for `damage` to judge.
thread_local std::string lastMessage;
thread_local std::vector<std::string> drawingMessages;

// poppler-cpp writes "error (offset): text" or "error: text"; the text is
// kept, without the line break OpenJPEG's messages end in.
void keep(std::string const &message, void *) {
    size_t colon = message.rfind("error", 0) == 0 ? message.find(": ") : std::string::npos;
    std::string text = colon == std::string::npos ? message : message.substr(colon + 2);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    if (lastMessage.empty()) lastMessage = text;
    if (drawingMessages.size() < 64) drawingMessages.push_back(text);
}

bool has(std::string const &text, const char *part) { return text.find(part) != std::string::npos; }

// What poppler said while drawing that makes the page wrong: a picture
// stream it could not decode whole (Flate, LZW, CCITT, DCT, JBIG2, JPEG 2000
// data, an image's parameters). Structure, annotation, form, font and
// graphics-state warnings ("Bad annotation destination", "Restoring state
// when no valid states to pop", "SubType on non-terminal field, invalid
// document?") leave the page's pixels as every reader draws them, and do
// not fail it. A JPEG 2000 stream that is a bare codestream, not a JP2
// file, is first tried as JP2 and then read as what it is: the messages of
// that abandoned attempt are no damage. Returns the first damage, or "".
std::string damage(std::vector<std::string> messages) {
    for (size_t i = 0; i < messages.size(); i++) {
        if (messages[i].rfind("Did no succeed opening JPX Stream as JP2", 0) != 0) continue;
        size_t from = i;
        if (from > 0 && messages[from - 1] == "Unable to read header") from--;
        if (from > 0 && messages[from - 1].rfind("Malformed JP2 file format", 0) == 0) from--;
        messages.erase(messages.begin() + long(from), messages.begin() + long(i) + 1);
        i = from - 1;
    }
    static const char *const pictureWords[] = {
        "stream", "Stream", "flate", "Flate", "LZW", "CCITT", "DCT", "JPEG", "JBIG2", "JPX", "JP2", "codestream",
        "segment", "header", "marker", "tile", "Tile", "image", "Image", "decode", "Decode", "premature", "Premature",
    };
    for (auto const &message : messages) {
        for (const char *word : pictureWords) {
            if (has(message, word)) return message;
        }
    }
    return "";
}

void silence() {
    static std::once_flag once;
    std::call_once(once, [] { poppler::set_debug_error_function(keep, nullptr); });
}

void put(char *message, size_t size, std::string text) {
    if (!message || size == 0) return;
    for (auto &c : text) if (c == '\n' || c == '\r') c = ' ';
    std::snprintf(message, size, "%s", text.c_str());
}

struct Opened {
    std::unique_ptr<poppler::document> document;
    std::unique_ptr<poppler::page> page;
};

int open(const uint8_t *data, size_t size, Opened &opened, char *message, size_t message_size) {
    silence();
    lastMessage.clear();
    if (size > size_t(INT32_MAX)) { put(message, message_size, "too large a page"); return -1; }
    opened.document.reset(poppler::document::load_from_raw_data(reinterpret_cast<const char *>(data), int(size)));
    if (!opened.document) {
        put(message, message_size, lastMessage.empty() ? "poppler cannot read this page" : lastMessage);
        return -1;
    }
    if (opened.document->is_locked()) { put(message, message_size, "encrypted"); return -2; }
    if (opened.document->pages() < 1) { put(message, message_size, "no page"); return -1; }
    opened.page.reset(opened.document->create_page(0));
    if (!opened.page) { put(message, message_size, "poppler cannot read this page"); return -1; }
    return 0;
}

bool turned(poppler::page const &page) {
    auto o = page.orientation();
    return o == poppler::page::landscape || o == poppler::page::seascape;
}


// The first page's size in points, turned by its rotation; false for an empty box.
bool pageSize(Opened const &opened, double &width, double &height) {
    poppler::rectf box = opened.page->page_rect(poppler::crop_box);
    bool swap = turned(*opened.page);
    width = swap ? box.height() : box.width();
    height = swap ? box.width() : box.height();
    return width > 0 && height > 0;
}

// Runs `body`, turning any exception into -1 and a message.
template <typename F> int guarded(char *message, size_t message_size, F body) {
    try {
        return body();
    } catch (std::exception const &e) {
        put(message, message_size, e.what());
        return -1;
    } catch (...) {
        put(message, message_size, "poppler failed");
        return -1;
    }
}

} // namespace

extern "C" int mh_poppler_render(const uint8_t *data, size_t size, int width, int height, uint8_t *rgb, size_t stride,
                                 char *message, size_t message_size) {
    static std::mutex first;
    static std::atomic<bool> warmed{false};
    return guarded(message, message_size, [&] {
        Opened opened;
        int status = open(data, size, opened, message, message_size);
        if (status != 0) return status;
        double w = 0, h = 0;
        if (!pageSize(opened, w, h) || width < 1 || height < 1) { put(message, message_size, "an empty page box"); return -1; }
        poppler::page_renderer renderer;
        renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
        renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
        renderer.set_paper_color(0xffffffff);
        renderer.set_image_format(poppler::image::format_argb32);
        double xres = 72.0 * width / w, yres = 72.0 * height / h;
        poppler::image image;
        lastMessage.clear();  // only what poppler says while drawing decides
        drawingMessages.clear();
        {
            std::unique_lock<std::mutex> hold(first, std::defer_lock);
            if (!warmed.load(std::memory_order_acquire)) hold.lock();
            image = renderer.render_page(opened.page.get(), xres, yres, 0, 0, width, height);
            warmed.store(true, std::memory_order_release);
        }
        if (!image.is_valid() || image.width() < width || image.height() < height
            || image.format() != poppler::image::format_argb32) {
            put(message, message_size, lastMessage.empty() ? "poppler could not draw this page" : lastMessage);
            return -1;
        }
        // poppler draws what it can of a damaged picture (a bogus JBIG2, a
        // damaged Flate or JPEG 2000 stream) and says so: a wrong page is an
        // error (SPEC §6), not a page drawn in part.
        std::string damaged = damage(drawingMessages);
        drawingMessages.clear();
        if (!damaged.empty()) {
            put(message, message_size, "poppler: " + damaged);
            return -1;
        }
        const char *pixels = image.const_data();
        for (int y = 0; y < height; y++) {
            auto *in = reinterpret_cast<const uint8_t *>(pixels + size_t(y) * size_t(image.bytes_per_row()));
            uint8_t *out = rgb + size_t(y) * stride;
            for (int x = 0; x < width; x++) {
                // 0xAARRGGBB in native (little-endian) order: B, G, R, A; opaque on white paper.
                out[3 * x] = in[4 * x + 2];
                out[3 * x + 1] = in[4 * x + 1];
                out[3 * x + 2] = in[4 * x];
            }
        }
        return 0;
    });
}
