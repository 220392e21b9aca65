// Mihiraki's PDF reader: JPEG 2000 pictures, read by openjp2 from memory.
#include "pdf_internal.hpp"

#include <openjpeg-2.5/openjpeg.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace mhpdf {

namespace {

struct MemoryStream {
    std::vector<uint8_t> const *bytes;
    size_t at = 0;
};

OPJ_SIZE_T readMemory(void *buffer, OPJ_SIZE_T size, void *user) {
    auto *m = static_cast<MemoryStream *>(user);
    if (m->at >= m->bytes->size()) return OPJ_SIZE_T(-1);
    size_t n = std::min(size_t(size), m->bytes->size() - m->at);
    std::memcpy(buffer, m->bytes->data() + m->at, n);
    m->at += n;
    return n;
}
OPJ_OFF_T skipMemory(OPJ_OFF_T count, void *user) {
    auto *m = static_cast<MemoryStream *>(user);
    if (count < 0) return -1;
    size_t n = std::min(size_t(count), m->bytes->size() - m->at);
    m->at += n;
    return OPJ_OFF_T(n);
}
OPJ_BOOL seekMemory(OPJ_OFF_T to, void *user) {
    auto *m = static_cast<MemoryStream *>(user);
    if (to < 0 || size_t(to) > m->bytes->size()) return OPJ_FALSE;
    m->at = size_t(to);
    return OPJ_TRUE;
}
void quiet(const char *, void *) {}

} // namespace

Jpx jpx(std::vector<uint8_t> const &bytes, bool decode) {
    Jpx result;
    static const uint8_t jp2[] = {0, 0, 0, 12, 'j', 'P', ' ', ' '};
    bool isJP2 = bytes.size() >= 8 && std::memcmp(bytes.data(), jp2, 8) == 0;
    std::unique_ptr<opj_codec_t, void (*)(opj_codec_t *)> codec(opj_create_decompress(isJP2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K),
                                                               opj_destroy_codec);
    if (!codec) throw Failure(MH_PDF_DAMAGED, "its JPEG 2000 picture cannot be read");
    opj_set_info_handler(codec.get(), quiet, nullptr);
    opj_set_warning_handler(codec.get(), quiet, nullptr);
    opj_set_error_handler(codec.get(), quiet, nullptr);
    opj_dparameters_t parameters;
    opj_set_default_decoder_parameters(&parameters);
    if (!opj_setup_decoder(codec.get(), &parameters)) throw Failure(MH_PDF_DAMAGED, "its JPEG 2000 picture cannot be read");
    MemoryStream memory{&bytes};
    std::unique_ptr<opj_stream_t, void (*)(opj_stream_t *)> stream(opj_stream_create(1 << 16, OPJ_TRUE), opj_stream_destroy);
    opj_stream_set_read_function(stream.get(), readMemory);
    opj_stream_set_skip_function(stream.get(), skipMemory);
    opj_stream_set_seek_function(stream.get(), seekMemory);
    opj_stream_set_user_data(stream.get(), &memory, nullptr);
    opj_stream_set_user_data_length(stream.get(), bytes.size());
    opj_image_t *raw = nullptr;
    if (!opj_read_header(stream.get(), codec.get(), &raw) || !raw) {
        if (raw) opj_image_destroy(raw);
        throw Failure(MH_PDF_DAMAGED, "its JPEG 2000 picture's header is damaged");
    }
    std::unique_ptr<opj_image_t, void (*)(opj_image_t *)> image(raw, opj_image_destroy);
    result.width = int(image->x1 - image->x0);
    result.height = int(image->y1 - image->y0);
    result.components = int(image->numcomps);
    if (result.components != 1 && result.components != 3) { result.why = "a JPEG 2000 picture of unusual components"; return result; }
    if (image->color_space == OPJ_CLRSPC_SYCC || image->color_space == OPJ_CLRSPC_EYCC || image->color_space == OPJ_CLRSPC_CMYK) {
        result.why = "a JPEG 2000 picture in YCC or CMYK";
        return result;
    }
    for (int c = 0; c < result.components; c++) {
        auto &comp = image->comps[c];
        if (comp.dx != 1 || comp.dy != 1 || comp.prec < 1 || comp.prec > 16) {
            result.why = "a subsampled JPEG 2000 picture";
            return result;
        }
    }
    if (!decode) return result;
    if (!opj_decode(codec.get(), stream.get(), image.get()) || !opj_end_decompress(codec.get(), stream.get())) {
        throw Failure(MH_PDF_DAMAGED, "its JPEG 2000 picture is damaged");
    }
    size_t pixels = size_t(result.width) * size_t(result.height);
    result.samples.resize(pixels * size_t(result.components));
    for (int c = 0; c < result.components; c++) {
        auto &comp = image->comps[c];
        if (!comp.data || comp.w != unsigned(result.width) || comp.h != unsigned(result.height)) {
            throw Failure(MH_PDF_DAMAGED, "its JPEG 2000 picture is damaged");
        }
        int64_t top = (int64_t(1) << comp.prec) - 1, offset = comp.sgnd ? (int64_t(1) << (comp.prec - 1)) : 0;
        for (size_t k = 0; k < pixels; k++) {
            int64_t v = std::min<int64_t>(top, std::max<int64_t>(0, int64_t(comp.data[k]) + offset));
            result.samples[k * size_t(result.components) + size_t(c)] =
                uint8_t(comp.prec == 8 ? v : (v * 255 + top / 2) / top);
        }
    }
    return result;
}

} // namespace mhpdf
