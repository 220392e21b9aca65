import CMihirakiCodecs

/// CRC-32 of some bytes: the checksum ZIP stores for each entry, computed
/// the same way for files in folders, so a book's fingerprint costs one
/// vectorised pass over its bytes (or nothing, for a ZIP's stored values).
package func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { mh_crc32(crc, $0.baseAddress, $0.count) }
}
