/// A page format, declared once, in its decoder's file (`PNGPageDecoder.swift`
/// declares ``png``): its name, the magic bytes that identify it, the
/// extensions people give it, its MIME type, what it can hold and the decoder
/// that reads it. Everything else — the book's page extensions, the list of
/// readable formats in errors, the comparator's inputs — is derived from
/// ``all``. A format is told from its bytes, never from a file's name.
///
/// Adding a page format: its C file, its decoder file (with its declaration),
/// and one line in ``all``. CONTRIBUTING.md has the checklist.
package struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// What a format can hold and how its decoder delivers it.
    package struct Capabilities: Hashable, Sendable {
        /// Pages can carry transparency.
        package var alpha: Bool
        /// Pages can be stored without loss.
        package var lossless: Bool
        /// A gray page is decoded as one channel (the gray path, gray spreads):
        /// known from its header, or for a format decoded whole, from its pixels.
        package var gray: Bool
        /// Rows are handed out as they are decoded (otherwise the picture is decoded whole first).
        package var streamed: Bool
        /// The largest side the format can store.
        package var largestSide: Int
    }

    /// One way the first bytes of a file identify the format: every part
    /// must match (`RIFF` at 0 and `WEBP` at 8).
    package struct Signature: Sendable {
        package var parts: [(offset: Int, bytes: [UInt8])]

        package init(_ parts: (offset: Int, bytes: [UInt8])...) { self.parts = parts }
        /// `text`'s bytes at `offset`.
        package static func text(_ text: String, at offset: Int = 0) -> Signature { Signature((offset, Array(text.utf8))) }
        /// `bytes` at offset 0.
        package static func bytes(_ bytes: [UInt8]) -> Signature { Signature((0, bytes)) }

        package func matches(_ head: [UInt8]) -> Bool { parts.allSatisfy { head.hasMagic($0.bytes, at: $0.offset) } }
    }

    /// A short stable identifier: `png`, `jpeg`, `jpeg-xl`.
    package let id: String
    /// The format's name as people write it: `PNG`, `WebP`, `JPEG XL`.
    package let name: String
    /// File-name extensions, lower case, the usual one first.
    package let extensions: [String]
    /// The MIME type.
    package let mimeType: String
    /// Any one of these identifies the format.
    package let signatures: [Signature]
    /// What the format holds; `nil` for a format Mihiraki names but does not read.
    package let capabilities: Capabilities?
    /// The decoder; `nil` for a format Mihiraki names in errors but does not read.
    let decoder: (any PageFormatDecoder.Type)?

    init(id: String, name: String, extensions: [String], mimeType: String, signatures: [Signature],
         decoder: (any PageFormatDecoder.Type)?, capabilities: Capabilities?) {
        self.id = id
        self.name = name
        self.extensions = extensions
        self.mimeType = mimeType
        self.signatures = signatures
        self.decoder = decoder
        self.capabilities = capabilities
    }

    /// Every page format Mihiraki knows, read or only named, in the order
    /// errors list them. One line per format.
    package static let all: [ImageFormat] = [
        .png, .jpeg, .webp, .gif, .avif, .jpegXL,
        .bmp, .tiff, .heic,
    ]

    /// Formats only Mihiraki's own book readers produce (a PDF page's picture
    /// samples, a PDF page to rasterise): decoded like the others, never
    /// named to users, never taken for a page of a folder.
    package static let inner: [ImageFormat] = [.pdfSamples, .pdfPage]

    /// The formats Mihiraki decodes.
    package static var readable: [ImageFormat] { all.filter(\.isDecodable) }

    /// "PNG, JPEG, WebP, GIF, AVIF and JPEG XL": the readable formats, as errors name them.
    package static var readableNames: String { listed(readable.map(\.name)) }

    /// "PNG, JPEG, WebP, GIF, AVIF or JPEG XL", for a help text that asks for one.
    package static func readableNames(or: Bool) -> String { listed(readable.map(\.name), or ? "or" : "and") }

    /// Extensions of every known page format (read or only named, so a BMP
    /// page fails its book with a message instead of vanishing).
    package static var knownExtensions: Set<String> { Set(all.flatMap(\.extensions)) }

    /// Extensions of the formats Mihiraki decodes.
    package static var readableExtensions: Set<String> { Set(readable.flatMap(\.extensions)) }

    package var isDecodable: Bool { decoder != nil }
    package var rawValue: String { id }
    package var description: String { name }

    package static func == (a: ImageFormat, b: ImageFormat) -> Bool { a.id == b.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Recognises the format from a file's leading bytes, or `nil`.
    package static func sniff<C: Collection<UInt8>>(_ bytes: C) -> ImageFormat? {
        let head = Array(bytes.prefix(16))
        return (all + inner).first { $0.signatures.contains { $0.matches(head) } }
    }
}

extension ImageFormat {
    /// Formats people keep comics in that Mihiraki does not decode: named in
    /// errors, so a page in one fails its book in words.
    package static let bmp = ImageFormat(id: "bmp", name: "BMP", extensions: ["bmp"], mimeType: "image/bmp",
                                         signatures: [.text("BM")], decoder: nil, capabilities: nil)
    package static let tiff = ImageFormat(id: "tiff", name: "TIFF", extensions: ["tif", "tiff"], mimeType: "image/tiff",
                                          signatures: [.bytes([0x49, 0x49, 0x2A, 0x00]), .bytes([0x4D, 0x4D, 0x00, 0x2A])],
                                          decoder: nil, capabilities: nil)
    package static let heic = ImageFormat(id: "heic", name: "HEIC", extensions: ["heic", "heif"], mimeType: "image/heic",
                                          signatures: ["heic", "heix", "mif1"].map { brand in
                                              Signature((4, Array("ftyp".utf8)), (8, Array(brand.utf8)))
                                          },
                                          decoder: nil, capabilities: nil)
}

/// "A, B and C" (or "A, B or C").
package func listed(_ names: [String], _ conjunction: String = "and") -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
}

extension Array where Element == UInt8 {
    /// Whether these leading bytes of a file hold `magic` at `offset`.
    package func hasMagic(_ magic: [UInt8], at offset: Int = 0) -> Bool {
        count >= offset + magic.count && self[offset..<offset + magic.count].elementsEqual(magic)
    }
}
