import MihirakiCore

/// Where a book's bytes come from: a folder on disk, a ZIP archive read in
/// place, or a RAR, 7z or tar archive unpacked once into a private temporary
/// folder under numbered names. Entry names are never paths on disk, so
/// names like `../../x` are harmless.
protocol BookSource: Sendable {
    /// Relative paths of every file in the book, `/`-separated.
    func listFiles() throws -> [String]
    /// The whole content of one file.
    func read(_ relativePath: String) throws -> [UInt8]
    /// A description of where `relativePath` lives, for error messages.
    func displayPath(_ relativePath: String) -> String
    /// The size and CRC-32 of a file's content, for the book's fingerprint.
    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32)
    /// The size and CRC-32 of the whole book as one file, when that is the
    /// cheaper fingerprint (an archive that would have to be unpacked to
    /// checksum its entries); `nil` to checksum file by file.
    func wholeChecksum() throws -> (size: Int, crc: UInt32)?
    /// At least the first `count` bytes of a file (all of it when shorter);
    /// enough for a header in nearly every image. Each source reads no more
    /// than it must: a page's header is judged on a prefix.
    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8]
    /// The pages in the order the book itself declares (an EPUB's spine), or
    /// `nil`: then every image file is a page, in natural order of its path.
    func readingOrder() throws -> [String]?
    /// What the book file says about its own layout (an EPUB's spine, a
    /// PDF's catalog); `nil` for folders and comic archives.
    var declarations: BookDeclarations? { get }
    /// What the book holds and is not shown, each named: the book goes on.
    var warnings: [MihirakiError] { get }
}

/// What a book file declares about its layout (SPEC §1b), applied before the
/// command line's flags, which come after and win.
struct BookDeclarations: Sendable {
    /// Where the declarations were read, as `plan --explain` names it.
    var origin: Origin
    /// The reading direction (an EPUB spine's `page-progression-direction`).
    var direction: ReadingDirection? = nil
    /// Whether the first page stands alone (a PDF's `/PageLayout`).
    var cover: CoverMode? = nil
    /// Pages (by source path) declared on one side of their spread.
    var sides: [String: PageSide] = [:]
    /// Pages (by source path) declared to be shown alone, drawn as a wide page is.
    var alone: Set<String> = []
}

extension BookSource {
    /// The whole file when it is at most `limit` bytes, else nil, having read
    /// (or inflated) no more than `limit + 1` of them: for the documents a
    /// book holds (`ComicInfo.xml`, an EPUB's XML), which a hostile book can
    /// make inflate to a GiB.
    func read(_ relativePath: String, atMost limit: Int) throws -> [UInt8]? {
        guard try readPrefix(relativePath, count: limit + 1).count <= limit else { return nil }
        return try read(relativePath)
    }

    func wholeChecksum() throws -> (size: Int, crc: UInt32)? { nil }
    func readingOrder() throws -> [String]? { nil }
    var declarations: BookDeclarations? { nil }
    var warnings: [MihirakiError] { [] }
}

/// An archive entry's name as a book path: `.` and empty components dropped,
/// so `./ch1//p1.png` (tar and zip of `.`) is `ch1/p1.png`. `..` is kept: the
/// book skips it like any dot-name, and entries are never paths on disk.
func entryPath(_ name: String) -> String {
    name.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(separator: "/")
}
