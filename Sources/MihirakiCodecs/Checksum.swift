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

/// Inflates a raw deflate stream that must give exactly `size` bytes (a ZIP
/// entry of known size); nil when it is damaged, shorter or longer.
package func inflateRaw(_ compressed: [UInt8], size: Int) -> [UInt8]? {
    // An empty entry may be stored as no bytes at all, which is no deflate stream.
    if size == 0 && compressed.isEmpty { return [] }
    var produced = 0
    var failed = false
    // At least one byte, so the buffer has an address even for an empty entry.
    let output = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
        failed = compressed.withUnsafeBytes { mh_inflate_raw($0.baseAddress, $0.count, buffer.baseAddress, size, &produced) } != 0
        count = failed ? 0 : produced
    }
    return failed || produced != size ? nil : output
}

/// The first `count` bytes a raw deflate stream gives (fewer when it ends
/// first, or when `compressed` is only its beginning); nil when damaged.
package func inflateRawPrefix(_ compressed: [UInt8], count: Int) -> [UInt8]? {
    var produced = 0
    var failed = false
    let output = [UInt8](unsafeUninitializedCapacity: max(count, 1)) { buffer, filled in
        failed = compressed.withUnsafeBytes { mh_inflate_raw_prefix($0.baseAddress, $0.count, buffer.baseAddress, count, &produced) } != 0
        filled = failed ? 0 : produced
    }
    return failed ? nil : output
}
