// CRC-32 for input fingerprints, by libdeflate (vectorised). The same CRC as
// ZIP stores for each entry, so an archive's stored checksums serve as is.
#include "shim.h"

#include <libdeflate.h>

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
