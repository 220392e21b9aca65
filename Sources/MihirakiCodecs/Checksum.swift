import CMihirakiCodecs

/// CRC-32 of some bytes: the checksum ZIP stores for each entry, computed
/// the same way for files in folders, so a book's fingerprint costs one
/// vectorised pass over its bytes (or nothing, for a ZIP's stored values).
package func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { crc32($0, continuing: crc) }
}

/// CRC-32 of raw bytes, continuing `crc`.
package func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    mh_crc32(crc, bytes.baseAddress, bytes.count)
}
