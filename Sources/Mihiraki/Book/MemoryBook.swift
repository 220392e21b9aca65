/// A book given as bytes, as object storage or an HTTP response gives it:
/// held in an unnamed scratch file (`ScratchFile`) for as long as the book
/// is, so the kernel frees it however the process ends and no folder ever
/// lists it, and read as a file of the given name would be. Every message
/// names the book by that name, never the scratch file.
extension Book {
    /// Opens a book file (an archive, an EPUB or a PDF) from its bytes.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - name: the file's name (`vol01.cbz`): the book's name, its output
    ///     folder's, and what messages call it; its extension decides the
    ///     kind only where the bytes cannot.
    /// - Throws: ``MihirakiError`` naming `name`, as ``load(_:)`` does for a file.
    public static func load(data: [UInt8], name: String) throws -> Book {
        let shown = name.isEmpty ? "book" : name
        let scratch = try ScratchFile()
        try data.withUnsafeBytes { try scratch.write($0, path: shown) }
        let real = scratch.path
        do {
            var book = try load(real, confinedTo: nil, name: shown)
            book.storage = RenamedSource(inner: book.storage, real: real, shown: shown, scratch: scratch)
            book.warnings = book.warnings.map { RenamedSource.renamed($0, real: real, shown: shown) }
            return book
        } catch {
            throw RenamedSource.renamed(MihirakiError.from(error, path: shown), real: real, shown: shown)
        }
    }
}

/// A source whose messages call the scratch file by the book's name, and
/// which keeps the scratch file open for as long as the book is held.
struct RenamedSource: BookSource {
    let inner: any BookSource
    let real: String
    let shown: String
    let scratch: ScratchFile

    static func renamed(_ error: MihirakiError, real: String, shown: String) -> MihirakiError {
        var error = error
        if let path = error.path, path.hasPrefix(real) { error.path = shown + path.dropFirst(real.count) }
        error.message = error.message.replacingOccurrences(of: real, with: shown)
        return error
    }

    private func renaming<T>(_ call: () throws -> T) throws -> T {
        do { return try call() } catch let error as MihirakiError { throw Self.renamed(error, real: real, shown: shown) }
    }

    func listFiles() throws -> [String] { try renaming { try inner.listFiles() } }
    func read(_ relativePath: String) throws -> [UInt8] { try renaming { try inner.read(relativePath) } }
    func displayPath(_ relativePath: String) -> String {
        let path = inner.displayPath(relativePath)
        return path.hasPrefix(real) ? shown + path.dropFirst(real.count) : path
    }
    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) { try renaming { try inner.checksum(relativePath) } }
    func wholeChecksum() throws -> (size: Int, crc: UInt32)? { try renaming { try inner.wholeChecksum() } }
    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        try renaming { try inner.readPrefix(relativePath, count: count) }
    }
    func readingOrder() throws -> [String]? { try renaming { try inner.readingOrder() } }
    var declarations: BookDeclarations? { inner.declarations }
    var warnings: [MihirakiError] { inner.warnings.map { Self.renamed($0, real: real, shown: shown) } }
}
