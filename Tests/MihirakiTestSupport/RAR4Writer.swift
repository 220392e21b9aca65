/// RAR 4 archives for tests, written field by field from the RAR 4.x format
/// (marker block, archive header, one file header per entry, end block; each
/// header's CRC is the low 16 bits of the CRC-32 of its bytes after the CRC
/// field). Entries are stored (method 0x30), not compressed: Debian has no RAR
/// writer and libarchive only reads RAR, so this is the way to real RAR bytes.
public enum RAR4Writer {
    /// The archive. With `solid`, the archive header says solid and every
    /// entry after the first is marked as continuing the solid stream
    /// (FHD_SOLID), as WinRAR writes solid archives.
    public static func archive(_ entries: [(name: String, bytes: [UInt8])], solid: Bool = false) -> [UInt8] {
        var out: [UInt8] = [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x00]
        out += block(type: 0x73, flags: solid ? 0x0008 : 0, body: [0, 0, 0, 0, 0, 0])
        for (index, entry) in entries.enumerated() {
            let name = Array(entry.name.utf8)
            var body = le32(entry.bytes.count) + le32(entry.bytes.count)  // packed and unpacked sizes
            body += [3]                                                    // host OS: Unix
            body += le32(Int(Fixtures.crc32(entry.bytes)))
            body += le32(0x5021_0000)                                      // DOS time: 2020-01-01 00:00
            body += [20, 0x30]                                             // version 2.0 to extract; stored
            body += le16(name.count) + le32(0o100644) + name
            let flags: UInt16 = 0x8000 | (solid && index > 0 ? 0x0010 : 0)  // data follows; solid
            out += block(type: 0x74, flags: flags, body: body) + entry.bytes
        }
        out += block(type: 0x7B, flags: 0x4000, body: [])
        return out
    }

    private static func block(type: UInt8, flags: UInt16, body: [UInt8]) -> [UInt8] {
        let rest = [type] + le16(Int(flags)) + le16(7 + body.count) + body
        return le16(Int(Fixtures.crc32(rest) & 0xFFFF)) + rest
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
}
