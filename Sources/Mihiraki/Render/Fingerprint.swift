import MihirakiCore

/// What a book's output depends on, as one short value: the name, size and
/// CRC-32 of every image, of `ComicInfo.xml` and of KCC's spread labels beside
/// the book, the options that change the
/// output, and Mihiraki's release. `render` records it in `manifest.json`;
/// `--incremental` skips a book whose manifest records the same one. Content
/// decides, never a time stamp: a page replaced by another of the same size
/// and modification time has another CRC.
package enum Fingerprint {
    /// 16 hexadecimal digits (FNV-1a, 64 bits, over the inputs listed above).
    static func of(_ plan: SpreadPlan, run: RunOptions) throws -> String {
        try of(plan.book, options: plan.options, run: run)
    }

    /// The same value from the book and options alone, before any header is read.
    static func of(_ book: Book, options: LayoutOptions, run: RunOptions) throws -> String {
        var hash = FNV1a()
        hash.add("mihiraki \(MihirakiRelease.version)\n")
        hash.add(describe(options) + " contact-sheet=\(run.contactSheet)" + (run.writeComicInfo ? " write-comicinfo=true" : "") + "\n")
        try addContent(of: book, to: &hash)
        return hash.hex
    }

    /// The content part alone: changes exactly when a page, ComicInfo.xml or
    /// the spread labels change, whatever the options (the server computes it once per book).
    package static func content(of book: Book) throws -> String {
        var hash = FNV1a()
        try addContent(of: book, to: &hash)
        return hash.hex
    }

    /// An HTTP entity tag for one spread file: the book's content, the
    /// options (the format among them) and Mihiraki's release.
    package static func entityTag(content: String, options: LayoutOptions, spread: Int) -> String {
        var hash = FNV1a()
        hash.add("mihiraki \(MihirakiRelease.version)\n" + describe(options) + "\n\(content) \(spread)")
        return "\"" + hash.hex + "\""
    }

    private static func addContent(of book: Book, to hash: inout FNV1a) throws {
        if let labels = book.spreadLabels { hash.add("KCC spread labels\t\(labels.size)\t\(labels.crc)\n") }
        if let (size, crc) = try book.storage.wholeChecksum() {
            hash.add("book\t\(size)\t\(crc)\n")
            return
        }
        for image in book.images {
            let (size, crc) = try book.storage.checksum(image.source)
            hash.add("\(image.source)\t\(size)\t\(crc)\n")
        }
        if let comicInfo = book.comicInfoPath {
            let (size, crc) = try book.storage.checksum(comicInfo)
            hash.add("ComicInfo.xml\t\(size)\t\(crc)\n")
        }
    }

    /// Every option that can change a byte of the output, as the option
    /// table records them (``LayoutOptions/table``).
    package static func describe(_ options: LayoutOptions) -> String { options.recorded }
}

/// FNV-1a, 64 bits: small, fast enough for a few lines per page, and the
/// same on every machine (Swift's `Hasher` is seeded per process).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The value as 16 hexadecimal digits.
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }
}
