import Foundation
import MihirakiCodecs

/// The spread labels KCC (Kindle Comic Converter) writes beside a book,
/// `<book>.json` holding `{"spreads": [i, …]}`: images `i` and `i + 1`
/// (0-based, in the book's image order) are the two halves of one artwork.
/// Read as a declaration, like ComicInfo's: such a pair is kept together and
/// never judged by automatic pairing.
package struct KCCSpreadLabels: Sendable {
    /// The first image of each labelled pair, 0-based.
    var firstImages: [Int]
    /// The file's size and CRC-32, for the fingerprint and the ETag.
    var size: Int
    var crc: UInt32

    /// The largest labels file read: a number for each of a book's spreads fits many times over.
    static let limit = 1 << 20

    /// Where the labels of the book at `path` are: `path` + `.json`.
    package static func path(forBook path: String) -> String { path + ".json" }

    /// The labels beside the book at `path`, or nil when there are none. A
    /// file that is not such labels, or (for a server) lies outside `root`,
    /// is a warning and is not read further.
    static func load(forBook path: String, confinedTo root: String?) -> (KCCSpreadLabels?, MihirakiError?) {
        let file = Self.path(forBook: path)
        guard FileSystem.kind(file) == .file else { return (nil, nil) }
        if let root, !FileSystem.isInside(file, root) {
            return (nil, MihirakiError(.badBook, path: file, "ignored: leaves the served folder (a symbolic link outside it)"))
        }
        // Read only as far as labels could reach: a file of many GiB beside the book is not held whole.
        let read: [UInt8]?
        do { read = try FileSystem.read(file, atMost: limit) } catch {
            return (nil, MihirakiError(.badBook, path: file, "ignored: cannot be read"))
        }
        guard let bytes = read else {
            return (nil, MihirakiError(.badBook, path: file, "ignored: larger than \(limit >> 20) MiB, more than any KCC spread labels hold"))
        }
        struct Document: Decodable { var spreads: [Int] }
        guard let document = try? JSONDecoder().decode(Document.self, from: Data(bytes)) else {
            return (nil, MihirakiError(.badBook, path: file, "ignored: not KCC spread labels ({\"spreads\": [0-based image numbers]})"))
        }
        return (KCCSpreadLabels(firstImages: document.spreads, size: bytes.count, crc: crc32(bytes)), nil)
    }
}
