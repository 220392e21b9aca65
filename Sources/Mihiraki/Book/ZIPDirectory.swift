/// What the central directory of a ZIP says about its entries, read from the
/// raw bytes: whether any is encrypted, and whether any uses a compression
/// method ZIPFoundation does not read (only stored and deflated entries are;
/// deflate64, bzip2, LZMA, PPMd and the rest go through libarchive).
struct ZIPDirectory {
    var hasEncryptedEntries = false
    var needsLibarchive = false

    /// Reads the end-of-directory record and the directory. A file it cannot
    /// make sense of gives the defaults: ZIPFoundation then has the last word.
    init(path: String) {
        guard let tail = try? FileSystem.readTail(path, count: 65_557) else { return }
        // The end-of-central-directory record: "PK\5\6", the last one in the file.
        var at = tail.count - 22
        while at >= 0 && !(tail[at] == 0x50 && tail[at + 1] == 0x4B && tail[at + 2] == 5 && tail[at + 3] == 6) { at -= 1 }
        guard at >= 0 else { return }
        func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }
        let size = u32(tail, at + 12), offset = u32(tail, at + 16)
        guard size > 0, size < 1 << 30, offset != 0xFFFF_FFFF,
              let directory = try? FileSystem.readRange(path, offset: offset, count: size), directory.count == size else { return }
        var record = 0
        while record + 46 <= directory.count, u32(directory, record) == 0x0201_4B50 {
            let flags = u16(directory, record + 8), method = u16(directory, record + 10)
            if flags & 1 != 0 { hasEncryptedEntries = true }
            if method != 0 && method != 8 { needsLibarchive = true }
            record += 46 + u16(directory, record + 28) + u16(directory, record + 30) + u16(directory, record + 32)
        }
    }
}
