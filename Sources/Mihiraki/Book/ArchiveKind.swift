import MihirakiCodecs

/// Which reader an archive file needs, told from its first bytes; the name
/// decides only when the bytes say nothing Mihiraki knows.
package enum ArchiveKind {
    /// File extensions of the archives Mihiraki reads as books.
    package static let fileExtensions: Set<String> = ["cbz", "zip", "cbr", "rar", "cb7", "7z", "cbt", "tar"]

    /// ZIP (`.cbz`): read in place, entry by entry, with ZIPFoundation.
    case zip
    /// RAR, 7z, tar (`.cbr`, `.cb7`, `.cbt`): read front to back with libarchive.
    case sequential

    init?(head: [UInt8], name: String) {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool { head.hasMagic(magic, at: offset) }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) {
            self = .zip
        } else if starts(Array("Rar!\u{1A}\u{07}".utf8)) || starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C])
                    || starts(Array("ustar".utf8), at: 257) {
            self = .sequential
        } else {
            let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            guard Self.fileExtensions.contains(ext) else { return nil }
            switch ext {
            case "cbz", "zip": self = .zip
            case "cbr", "rar", "cb7", "7z", "cbt", "tar": self = .sequential
            default: return nil
            }
        }
    }
}
