// CRC-32 for input fingerprints, by libdeflate (vectorised). The same CRC as
// ZIP stores for each entry, so an archive's stored checksums serve as is.
#include "shim.h"

#include <libdeflate.h>

uint32_t mh_crc32(uint32_t crc, const void *data, size_t size) {
    return libdeflate_crc32(crc, data, size);
}
