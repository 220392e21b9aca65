import MihirakiCodecs

/// A kind of book file, declared once, in its reader's file (`ZIPSource.swift`
/// declares ``zip``): its name, its extensions, the magic bytes that identify
/// it, and how it is opened. A folder of page images is the other kind of
/// book and needs no declaration. Book loading, the server's catalog, help
/// texts and errors are derived from ``all``.
///
/// Adding a kind of book: its source file (a ``BookSource`` and its
/// declaration) and one line in ``all``. CONTRIBUTING.md has the checklist.
package struct BookKind: Sendable {
    /// The name errors use: `ZIP`, `RAR`, `7z`, `tar`.
    package let name: String
    /// File-name extensions, lower case, the comic-book one first (`cbz`, `zip`).
    package let extensions: [String]
    /// Any one of these identifies the kind from the file's first 512 bytes.
    package let signatures: [ImageFormat.Signature]
    /// Opens the file at `path` (its bytes said it is this kind, or they said
    /// nothing and its name did).
    let open: @Sendable (_ path: String) throws -> any BookSource

    /// Every kind of book file, in the order errors list them. One line per kind.
    package static let all: [BookKind] = [.epub, .pdf, .zip, .rar, .sevenZip, .tar]

    /// Extensions of every kind of book file.
    package static var fileExtensions: Set<String> { Set(all.flatMap(\.extensions)) }

    /// Every kind's name, as errors list them.
    static var names: String { all.map(\.name).joined(separator: ", ") }

    /// ".cbz, .cbr, .cb7, .cbt": each kind's usual extension, as help texts list them.
    package static var extensionList: String { all.map { "." + $0.extensions[0] }.joined(separator: ", ") }

    /// The kind the first bytes say; the name decides only when the bytes say
    /// nothing Mihiraki knows (a `.cbz` that is really 7z is read as 7z).
    static func of(head: [UInt8], name: String) -> BookKind? {
        all.first { $0.signatures.contains { $0.matches(head) } } ?? of(name: name)
    }

    /// The kind a file's name says (`vol1.cbz`: ZIP), without reading it; `nil` for other names.
    package static func of(name: String) -> BookKind? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return all.first { $0.extensions.contains(ext) }
    }
}
