import MihirakiCodecs
import MihirakiCore

/// One input: a folder of page images, or a book file of any kind Mihiraki reads (a comic archive, an EPUB, a PDF).
public struct Book: Sendable {
    /// One image file of a book.
    public struct PageFile: Sendable {
        /// Path relative to the book's root, with `/` separators (the manifest's `source`).
        public var source: String

        init(source: String) { self.source = source }
    }

    /// The name the user knows the book by: the folder's name, or the
    /// archive's file name (`vol01.cbz`); the manifest's `book`.
    public var name: String
    /// The name of the book's output folder: the folder's name, or the
    /// archive's name without its extension (`vol01`).
    public var outputName: String
    /// The path given by the user.
    public var path: String
    /// Every image file, in natural order of relative path (before ComicInfo deletions).
    public var images: [PageFile]
    /// The book's `ComicInfo.xml`, when present and readable.
    var comicInfo: ComicInfo?
    /// Problems that do not stop the book, such as a malformed `ComicInfo.xml`.
    public var warnings: [MihirakiError]
    /// Where `ComicInfo.xml` is in the book, when it has one (readable or not).
    var comicInfoPath: String?
    /// KCC's spread labels beside the book (`<book>.json`), when there are some.
    var spreadLabels: KCCSpreadLabels?
    /// What the book file declares about its layout (an EPUB's spine).
    var declarations: BookDeclarations? { storage.declarations }

    var storage: any BookSource

    /// File name extensions of images: every page format's declaration
    /// (those only named too, so such a page fails in words). Other files are
    /// ignored, except (in folders) files whose first bytes are a readable
    /// format's signature.
    static let imageExtensions = ImageFormat.knownExtensions

    /// Loads a book: a folder (sub-folders walked) or an archive — ZIP read in
    /// place; RAR, 7z and tar unpacked once, on the first read, into a private
    /// temporary folder. The archive kind comes from the bytes (a `.cbz` that
    /// is really 7z is read as 7z). Dot-files and `__MACOSX` are skipped; images are
    /// sorted naturally and case-insensitively; `ComicInfo.xml` at the root is read.
    ///
    /// - Throws: `MihirakiError` if the book cannot be read or holds no images.
    public static func load(_ path: String) throws -> Book {
        try load(path, confinedTo: nil)
    }

    /// ``load(_:)`` for a server: with `root` (resolved), the book and every
    /// page must really be inside it — a symbolic link that leaves it is
    /// refused (the book) or skipped (a page).
    /// - Parameter name: the book's name when it is not the path's last
    ///   component (a book read from memory: ``load(data:name:)``).
    package static func load(_ path: String, confinedTo root: String?, name: String? = nil) throws -> Book {
        guard !path.isEmpty else { throw MihirakiError(.badBook, "an empty path names no book") }
        let (trimmed, pathName) = Self.trimmed(path)
        let fileName = name ?? pathName
        if let root, !FileSystem.isInside(trimmed, root) {
            throw MihirakiError(.badBook, path: path, "leaves the served folder (a symbolic link outside it)")
        }
        let storage: any BookSource
        let kind = FileSystem.kind(trimmed)
        let outputName = Self.outputName(fileName: fileName, isFolder: kind == .directory)
        switch kind {
        case .directory:
            storage = FolderSource(root: trimmed, confinement: root)
        case .file:
            let head = (try? FileSystem.readPrefix(trimmed, count: 512)) ?? []
            guard let bookKind = BookKind.of(head: head, name: fileName) else { throw notABook(path) }
            storage = try bookKind.open(trimmed)
        case .missing:
            throw MihirakiError(.badBook, path: path, "no such file or folder")
        case .other:
            throw notABook(path)
        }

        var images: [PageFile] = []
        var comicInfoPath: String?
        for file in try storage.listFiles() {
            let components = file.split(separator: "/")
            if components.contains(where: { $0.hasPrefix(".") || $0 == "__MACOSX" }) { continue }
            if components.count == 1 && file.lowercased() == "comicinfo.xml" {
                comicInfoPath = file
            } else if isImageName(file)
                        || (storage is FolderSource && isImageSignature((try? storage.readPrefix(file, count: 16)) ?? [])) {
                images.append(PageFile(source: file))
            }
        }
        if let declared = try storage.readingOrder() {
            images = declared.map(PageFile.init(source:))
        } else {
            images.sort { NaturalOrder.less($0.source, $1.source) }
        }
        guard !images.isEmpty else { throw MihirakiError(.badBook, path: path, "no page images in this book") }

        var comicInfo: ComicInfo?
        var warnings = storage.warnings
        // Read whole only when it could be one: a ZIP's ComicInfo.xml
        // inflating to a GiB would be held by loading the book, which `serve`
        // does in its own process.
        if let comicInfoPath {
            let place = storage.displayPath(comicInfoPath)
            do {
                if let bytes = try storage.read(comicInfoPath, atMost: comicInfoLimit) {
                    comicInfo = try ComicInfo.parse(bytes)
                } else {
                    warnings.append(MihirakiError(.badBook, path: place,
                                                  "ignored: larger than \(comicInfoLimit >> 20) MiB, more than any ComicInfo.xml holds"))
                }
            } catch let error as ComicInfo.Malformed {
                warnings.append(MihirakiError(.badBook, path: place, "ignored: " + error.message, underlying: error))
            }
        }
        let (spreadLabels, labelsWarning) = KCCSpreadLabels.load(forBook: trimmed, confinedTo: root)
        if let labelsWarning { warnings.append(labelsWarning) }
        return Book(name: fileName, outputName: outputName, path: name ?? trimmed, images: images, comicInfo: comicInfo,
                    warnings: warnings, comicInfoPath: comicInfoPath, spreadLabels: spreadLabels, storage: storage)
    }

    private static func notABook(_ path: String) -> MihirakiError {
        MihirakiError(.badBook, path: path, "not a folder or a book file Mihiraki reads (\(BookKind.names))")
    }

    /// The name of the output folder a book at `path` gets, found without
    /// reading the book (``Shard`` uses it to pick books cheaply): a
    /// folder's name (a path ending in `/` is taken as a folder), or a file's
    /// name without its extension.
    /// - Parameter path: a book's path as given.
    public static func outputName(forPath path: String) -> String {
        let (trimmed, fileName) = Self.trimmed(path)
        return outputName(fileName: fileName, isFolder: path.hasSuffix("/") || FileSystem.kind(trimmed) == .directory)
    }

    /// A folder keeps its name; a file loses its extension.
    private static func outputName(fileName: String, isFolder: Bool) -> String {
        guard !isFolder, let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
    }

    /// The path without trailing slashes, and its last component.
    private static func trimmed(_ path: String) -> (path: String, fileName: String) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return (trimmed, trimmed.split(separator: "/").last.map(String.init) ?? trimmed)
    }

    /// The bytes of one image.
    /// - Throws: ``MihirakiError`` naming the file when it cannot be read.
    public func read(_ page: PageFile) throws -> [UInt8] { try storage.read(page.source) }

    /// The header of one image, read from the first bytes of the file when
    /// they suffice (nearly always), so planning a book does not read it whole.
    /// - Throws: ``MihirakiError`` naming the file, for a damaged or unsupported header.
    func header(_ page: PageFile) throws -> PageHeader {
        let head = try storage.readPrefix(page.source, count: Self.headerPrefix)
        return try MihirakiError.wrapping(path: displayPath(page)) {
            if let header = try? PageDecoder.header(of: head) { return header }
            guard head.count == Self.headerPrefix else { return try PageDecoder.header(of: head) }
            // A header larger than the prefix (big EXIF or ICC data), or a
            // damaged one: judged on up to `headerLimit` bytes, never more, so
            // a hostile page cannot make a plan (the server makes it in its
            // own process) hold its whole inflated size.
            let more = try storage.readPrefix(page.source, count: Self.headerLimit)
            do {
                return try PageDecoder.header(of: more)
            } catch var error as CodecError where more.count == Self.headerLimit {
                error.message += " (in its first \(Self.headerLimit >> 20) MiB, as far as a header is looked for)"
                throw error
            }
        }
    }

    /// The largest `ComicInfo.xml` read; a larger one is ignored, in a warning.
    static let comicInfoLimit = 16 << 20

    /// Bytes read for a page's header, and the most read when they do not hold it.
    static let headerPrefix = 256 << 10, headerLimit = 64 << 20

    /// Where an image lives, as errors name it (`book/p1.png`, `vol.cbz:p1.png`).
    /// - Parameter page: one of ``images``.
    public func displayPath(_ page: PageFile) -> String { storage.displayPath(page.source) }

    package static func isImageName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    static func isImageSignature(_ head: [UInt8]) -> Bool { ImageFormat.sniff(head).map(ImageFormat.readable.contains) == true }
}
