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
    guard size > 0 else { return compressed.isEmpty || inflateRawIsEmpty(compressed) ? [] : nil }
    var produced = 0
    var failed = false
    let output = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        failed = compressed.withUnsafeBytes { mh_inflate_raw($0.baseAddress, $0.count, buffer.baseAddress, size, &produced) } != 0
        count = failed ? 0 : produced
    }
    return failed || produced != size ? nil : output
}

/// Whether a raw deflate stream holds nothing (an empty entry, deflated).
private func inflateRawIsEmpty(_ compressed: [UInt8]) -> Bool {
    var produced = 0, scratch: UInt8 = 0
    return compressed.withUnsafeBytes { mh_inflate_raw($0.baseAddress, $0.count, &scratch, 1, &produced) } == 0 && produced == 0
}
