#if canImport(Glibc)
import Glibc
#endif

/// The central directory of a ZIP, read from the raw bytes and checked
/// against itself before any reader trusts it: the end record's entry count,
/// size and offset must match the directory, and every entry must point at a
/// local header of the same name. A directory that lies (a wrong count, a
/// broken signature, a name length that runs into the next entry, an offset
/// off the end) would otherwise let a reader find fewer pages than the
/// archive names and render the rest without a word; `unzip -t` refuses all
/// of these too. Also says whether any entry is encrypted, and whether any
/// uses a compression method ZIPFoundation does not read (only stored and
/// deflated entries are; deflate64, bzip2, LZMA, PPMd go through libarchive).
struct ZIPDirectory {
    var hasEncryptedEntries = false
    var needsLibarchive = false
    /// Entries the directory names, directories included.
    private(set) var entryCount = 0
    /// Where each entry's data starts (after its local header), in central
    /// directory order: Mihiraki reads entries itself, bounded by these.
    private(set) var dataOffsets: [Int] = []
    /// The archive's size in bytes.
    private(set) var fileSize = 0

    /// Reads and checks the end record, the directory and every local header.
    /// - Throws: ``MihirakiError`` (`.badBook`, naming the archive) when they disagree.
    init(path: String) throws {
        let (fd, fileSize) = try FileSystem.openFile(path)
        defer { close(fd) }
        self.fileSize = fileSize
        func damaged(_ what: String) -> MihirakiError { MihirakiError(.badBook, path: path, "a damaged ZIP archive: " + what) }
        func read(_ offset: Int, _ count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset + count <= fileSize else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                if n <= 0 { return nil }
                done += n
            }
            return bytes
        }

        // The end record: "PK\5\6", the last one in the file.
        let tailStart = max(0, fileSize - 65_557)
        guard let tail = read(tailStart, fileSize - tailStart) else { throw damaged("cannot read its end") }
        var end = tail.count - 22
        while end >= 0 && !(tail[end] == 0x50 && tail[end + 1] == 0x4B && tail[end + 2] == 5 && tail[end + 3] == 6) { end -= 1 }
        // No end record at all: not a ZIP archive, whatever its first bytes say.
        guard end >= 0 else { throw MihirakiError(.badBook, path: path, "not a readable ZIP archive") }
        var total = tail.u16(end + 10), size = tail.u32(end + 12), offset = tail.u32(end + 16)
        var directoryEnd = tailStart + end
        // ZIP64: a locator ("PK\6\7") just before the end record points at the ZIP64 end record.
        if end >= 20, tail.u32(end - 20) == 0x0706_4B50 {
            let recordOffset = tail.u64(end - 20 + 8)
            guard let record = read(recordOffset, 56), record.u32(0) == 0x0606_4B50 else {
                throw damaged("its ZIP64 end record is missing")
            }
            total = record.u64(32)
            size = record.u64(40)
            offset = record.u64(48)
            directoryEnd = recordOffset
        }
        guard offset >= 0, size >= 0, offset + size <= directoryEnd else {
            throw damaged("the end record places the central directory outside the file")
        }
        guard size < 1 << 30, let directory = read(offset, size) else { throw damaged("cannot read the central directory") }

        var record = 0
        for index in 0..<total {
            guard record + 46 <= directory.count else {
                throw damaged("the end record counts \(total) entries, the central directory holds \(index)")
            }
            guard directory.u32(record) == 0x0201_4B50 else { throw damaged("central directory entry \(index + 1) is broken") }
            let flags = directory.u16(record + 8), method = directory.u16(record + 10)
            let nameLength = directory.u16(record + 28), extraLength = directory.u16(record + 30)
            let next = record + 46 + nameLength + extraLength + directory.u16(record + 32)
            guard next <= directory.count else { throw damaged("central directory entry \(index + 1) runs past the directory") }
            let name = Array(directory[(record + 46)..<(record + 46 + nameLength)])
            var localOffset = directory.u32(record + 42)
            if localOffset == 0xFFFF_FFFF {
                localOffset = Self.zip64LocalOffset(directory, record: record, extraStart: record + 46 + nameLength,
                                                    extraLength: extraLength) ?? -1
            }
            guard localOffset >= 0, localOffset + 30 <= offset, let local = read(localOffset, 30), local.u32(0) == 0x0403_4B50,
                  read(localOffset + 30, local.u16(26)) == name else {
                throw damaged("entry \(index + 1) (\(String(decoding: name, as: UTF8.self).prefix(80))) has no local header of its name")
            }
            dataOffsets.append(localOffset + 30 + local.u16(26) + local.u16(28))
            if flags & 1 != 0 { hasEncryptedEntries = true }
            if method != 0 && method != 8 { needsLibarchive = true }
            record = next
        }
        guard record == directory.count else {
            let more = record + 4 <= directory.count && directory.u32(record) == 0x0201_4B50
            throw damaged(more ? "the central directory holds more entries than the end record's \(total)"
                               : "the central directory is \(record) bytes, the end record says \(size)")
        }
        entryCount = total
    }

    /// The local header offset from a ZIP64 extra field (id 1), where the
    /// 32-bit field says 0xFFFFFFFF. The field lists, in order, only the values
    /// whose 32-bit fields overflowed: uncompressed size, compressed size, offset.
    private static func zip64LocalOffset(_ directory: [UInt8], record: Int, extraStart: Int, extraLength: Int) -> Int? {
        var at = extraStart
        while at + 4 <= extraStart + extraLength {
            let id = directory.u16(at), length = directory.u16(at + 2)
            if id == 1 {
                var field = at + 4
                if directory.u32(record + 24) == 0xFFFF_FFFF { field += 8 }
                if directory.u32(record + 20) == 0xFFFF_FFFF { field += 8 }
                return field + 8 <= at + 4 + length ? directory.u64(field) : nil
            }
            at += 4 + length
        }
        return nil
    }
}

private extension Array where Element == UInt8 {
    func u16(_ i: Int) -> Int { Int(self[i]) | Int(self[i + 1]) << 8 }
    func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
    func u64(_ i: Int) -> Int {
        let value = UInt64(u32(i)) | UInt64(u32(i + 4)) << 32
        return value > UInt64(Int.max) ? -1 : Int(value)
    }
}
