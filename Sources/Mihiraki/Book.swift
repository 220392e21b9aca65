import MihirakiCodecs
import MihirakiCore

/// One input: the page files of a book in reading order.
public struct Book: Hashable, Sendable {
    /// One page file of a book.
    public struct PageFile: Hashable, Sendable {
        /// Path relative to the book's root, with `/` separators (the manifest's `source`).
        public var source: String
        /// Where to read it.
        public var path: String
    }

    /// The name the user knows the book by: the folder's name.
    public var name: String
    /// The path given by the user.
    public var path: String
    /// Pages in natural order of their relative paths.
    public var pages: [PageFile]

    /// File name extensions of images; other files in a book folder are
    /// ignored unless their first bytes are a PNG or JPEG signature.
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "jfif", "gif", "webp", "bmp", "tif", "tiff", "avif", "heic", "heif", "jxl",
    ]

    /// Loads a book folder: its image files, sub-folders walked, sorted
    /// naturally and case-insensitively by relative path. Dot-files and
    /// `__MACOSX` are skipped.
    ///
    /// - Throws: `MihirakiError` if the folder cannot be read or holds no images.
    public static func load(folder path: String) throws -> Book {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard FileSystem.kind(trimmed) == .directory else {
            throw MihirakiError(.badBook, path: path, FileSystem.kind(trimmed) == .missing
                                ? "no such file or folder" : "not a folder of page images")
        }
        var pages: [PageFile] = []
        try collect(folder: trimmed, prefix: "", into: &pages)
        pages.sort { NaturalOrder.less($0.source, $1.source) }
        guard !pages.isEmpty else { throw MihirakiError(.badBook, path: path, "no page images in this book") }
        let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        return Book(name: name, path: trimmed, pages: pages)
    }

    static func collect(folder: String, prefix: String, into pages: inout [PageFile]) throws {
        for name in try FileSystem.list(folder) {
            if name.hasPrefix(".") || name == "__MACOSX" { continue }
            let path = folder + "/" + name
            let source = prefix + name
            switch FileSystem.kind(path) {
            case .directory:
                try collect(folder: path, prefix: source + "/", into: &pages)
            case .file where isPageName(name) || hasImageSignature(path):
                pages.append(PageFile(source: source, path: path))
            default:
                continue
            }
        }
    }

    static func isPageName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// A file without an image extension still counts when its bytes say PNG or JPEG.
    static func hasImageSignature(_ path: String) -> Bool {
        guard let head = try? FileSystem.readPrefix(path, count: 16) else { return false }
        return ImageFormat.sniff(head)?.isDecodable == true
    }
}
