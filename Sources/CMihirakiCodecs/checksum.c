// CRC-32 for input fingerprints, by libdeflate (vectorised). The same CRC as
// ZIP stores for each entry, so an archive's stored checksums serve as is.
#include "shim.h"

#include <libdeflate.h>
#include <limits.h>
#include <zlib.h>

uint32_t mh_crc32(uint32_t crc, const void *data, size_t size) {
    return libdeflate_crc32(crc, data, size);
}

int mh_inflate_raw(const void *src, size_t src_size, void *dst, size_t dst_size, size_t *produced) {
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (inflater == NULL) return -1;
    size_t out = 0;
    enum libdeflate_result result = libdeflate_deflate_decompress(inflater, src, src_size, dst, dst_size, &out);
    libdeflate_free_decompressor(inflater);
    *produced = out;
    return result == LIBDEFLATE_SUCCESS ? 0 : 1;
}

int mh_inflate_raw_prefix(const void *src, size_t src_size, void *dst, size_t dst_size, size_t *produced) {
    *produced = 0;
    z_stream stream = {0};
    if (inflateInit2(&stream, -15) != Z_OK) return -1;
    stream.next_in = (Bytef *)src;
    stream.next_out = (Bytef *)dst;
    int status = 0;
    while (stream.total_out < dst_size) {
        size_t in_left = src_size - (size_t)(stream.next_in - (const Bytef *)src);
        size_t out_left = dst_size - (size_t)stream.total_out;
        if (in_left == 0) break;
        // zlib counts in uInt: fed and drained in pieces that fit one.
        stream.avail_in = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
        stream.avail_out = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
        int result = inflate(&stream, Z_NO_FLUSH);
        if (result == Z_STREAM_END || result == Z_BUF_ERROR) break;  // the stream ended, or its input did
        if (result != Z_OK) {
            status = result == Z_MEM_ERROR ? -1 : 1;
            break;
        }
    }
    *produced = (size_t)stream.total_out;
    inflateEnd(&stream);
    return status;
}
