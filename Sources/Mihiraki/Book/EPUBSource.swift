import Foundation
import MihirakiCodecs
import MihirakiCore

/// An EPUB of pictures (a comic or a fixed-layout book): a ZIP whose pages are
/// its spine, read container → package document (OPF) → spine. A spine item
/// is a page when it is an image itself, or a document whose content is one
/// image (`<img src>`, SVG `<image xlink:href>` or `href`), resolved against
/// the item and percent-decoded. Pages come in spine order, never sorted by
/// name; the spine's `page-progression-direction` is the book's direction.
/// Items marked `linear="no"` are pages too, where they are pictures; one of
/// text is named in a warning. A reflowable (text) EPUB, and one whose pages
/// are encrypted, fail in one line that says so; so does malformed XML,
/// naming the file. UTF-16 package documents are read.
final class EPUBSource: BookSource, Sendable {
    /// The ZIP underneath, checked and read as any `.cbz` is.
    private let archive: any BookSource
    /// Page entries in spine order.
    let pages: [String]
    /// The spine's direction and the pages' sides.
    let declarations: BookDeclarations?
    /// Non-linear spine items of text, named.
    let warnings: [MihirakiError]
    let path: String
    /// The largest XML document read (container, package document, a page's document).
    static let documentLimit = 16 << 20

    init(path: String) throws {
        self.path = path
        let archive = try BookKind.zip.open(path)
        self.archive = archive
        let files = Set(try archive.listFiles())
        func bad(_ what: String) -> MihirakiError { MihirakiError(.badBook, path: path, "a damaged EPUB: " + what) }
        // A document (container, package, page) is read whole only when it
        // is no larger than `documentLimit`: one of a few hundred KB
        // inflating to 300 MiB made loading the book (which `serve` does in
        // its own process) hold 950 MB.
        func read(_ name: String) throws -> [UInt8] {
            guard files.contains(name) else { throw MihirakiError(.badBook, path: path, "an EPUB without \(name)") }
            guard let bytes = try archive.read(name, atMost: Self.documentLimit) else {
                throw MihirakiError(.badBook, path: path, "\(name) is larger than \(Self.documentLimit >> 20) MiB, "
                                    + "more than any document of an EPUB of pictures holds")
            }
            return bytes
        }

        // Every XML file of the book is read through here: a malformed one fails the book naming it.
        func elements(_ name: String) throws -> [Element] {
            do {
                return try Self.elements(in: read(name))
            } catch let malformed as XMLScanner.Malformed {
                throw bad("\(name) is not well-formed XML (\(malformed.reason))")
            }
        }

        // META-INF/container.xml names the package document.
        guard let opfPath = try elements("META-INF/container.xml")
            .first(where: { $0.name == "rootfile" })?.attributes["full-path"].map(entryPath) else {
            throw bad("META-INF/container.xml names no package document")
        }
        let opf = try elements(opfPath)
        // DRM: META-INF/encryption.xml naming a spine item (its URIs percent-encoded, as hrefs are).
        let encrypted = files.contains("META-INF/encryption.xml")
            ? Set(try elements("META-INF/encryption.xml").filter { $0.name == "CipherReference" }
                .compactMap { $0.attributes["URI"].map { entryPath($0.removingPercentEncoding ?? $0) } })
            : []
        func refuseEncrypted(_ entry: String) throws {
            if encrypted.contains(entry) {
                throw MihirakiError(.badBook, path: path, "an encrypted EPUB (DRM): its page \(entry) is encrypted")
            }
        }
        var items: [String: (href: String, type: String)] = [:]
        for element in opf where element.name == "item" {
            if let id = element.attributes["id"], let href = element.attributes["href"] {
                items[id] = (Self.resolve(href, against: opfPath), element.attributes["media-type"] ?? "")
            }
        }
        var declared = BookDeclarations(origin: .epubSpine)
        declared.direction = opf.first { $0.name == "spine" }?.attributes["page-progression-direction"]
            .flatMap(ReadingDirection.init(rawValue:))

        var pages: [String] = [], firstText: String?
        // Every spine item is a page, linear="no" ones included (a reader shows
        // them out of the flow); a non-linear item of text (a table of
        // contents, notes) is not a page and is named in a warning.
        var skipped: [MihirakiError] = []
        for itemref in opf where itemref.name == "itemref" {
            guard let idref = itemref.attributes["idref"], let item = items[idref] else {
                throw bad("the spine names an item the manifest does not have")
            }
            try refuseEncrypted(item.href)
            let page: String
            // An SVG spine item is a document (fixed-layout EPUBs wrap a picture in one), not a page format.
            if item.type.hasPrefix("image/") && item.type != "image/svg+xml" {
                page = item.href
            } else if let image = try Self.soleImage(in: read(item.href), of: item.href) {
                guard files.contains(image) else { throw bad("\(item.href) shows \(image), which is not in the book") }
                page = image
            } else if itemref.attributes["linear"] == "no" {
                skipped.append(MihirakiError(.badBook, path: archive.displayPath(item.href),
                                             "not shown: a non-linear spine item of text, not a picture"))
                continue
            } else {
                if firstText == nil { firstText = item.href }
                continue
            }
            pages.append(page)
            // Properties, with or without the rendition: prefix (EPUB 3.3 §4.3.2 and the fixed-layout vocabulary).
            let properties = Set((itemref.attributes["properties"] ?? "").split(whereSeparator: \.isWhitespace)
                .map { $0.split(separator: ":").last.map(String.init) ?? "" })
            if properties.contains("page-spread-center") || properties.contains("spread-none") {
                declared.alone.insert(page)
            } else if properties.contains("page-spread-left") {
                declared.sides[page] = .left
            } else if properties.contains("page-spread-right") {
                declared.sides[page] = .right
            }
        }
        // Any page of text: the book is not pictures, and showing only its
        // pictures (a novel's cover, say) would drop the rest without a word.
        if let firstText {
            throw MihirakiError(.badBook, path: path,
                                "a reflowable EPUB (text, not pictures; its first text item is \(firstText)): Mihiraki reads EPUBs whose pages are pictures")
        }
        guard !pages.isEmpty else { throw bad("its spine holds no pages") }
        for page in pages { try refuseEncrypted(page) }
        self.pages = pages
        declarations = declared
        warnings = skipped
    }

    func listFiles() throws -> [String] { try archive.listFiles() }
    func read(_ relativePath: String) throws -> [UInt8] { try archive.read(relativePath) }
    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] { try archive.readPrefix(relativePath, count: count) }
    func displayPath(_ relativePath: String) -> String { archive.displayPath(relativePath) }
    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) { try archive.checksum(relativePath) }
    func wholeChecksum() throws -> (size: Int, crc: UInt32)? { try archive.wholeChecksum() }
    func readingOrder() throws -> [String]? { pages }

    /// One element of an XML document: its local name (no prefix) and attributes (local names too).
    struct Element {
        var name: String
        var attributes: [String: String]
    }

    /// Every start tag of `bytes` (UTF-8, or UTF-16 with its byte-order mark), in order.
    static func elements(in bytes: [UInt8]) throws -> [Element] {
        var scanner = XMLScanner(utf8(bytes))
        var elements: [Element] = []
        while let event = try scanner.next() {
            guard case .start(let name, let attributes, _) = event else { continue }
            var local: [String: String] = [:]
            for (key, value) in attributes { local[localName(key)] = value }
            elements.append(Element(name: localName(name), attributes: local))
        }
        return elements
    }

    /// An XML document's bytes as UTF-8: a UTF-16 one (its byte-order mark
    /// says so, as XML 1.0 §4.3.3 requires) is transcoded; others are as they are.
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 2 else { return bytes }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFE, 0xFF): bigEndian = true
        case (0xFF, 0xFE): bigEndian = false
        default: return bytes
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 2
        while i + 1 < bytes.count {
            let high = UInt16(bigEndian ? bytes[i] : bytes[i + 1]), low = UInt16(bigEndian ? bytes[i + 1] : bytes[i])
            units.append(high << 8 | low)
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    /// Elements whose text is never drawn: an SVG picture's accessible name
    /// and description (`<title>`, `<desc>`, as the W3C EPUB tests' "embedded
    /// images svg" pages carry), its metadata, and style and script.
    static let undrawnText: Set<String> = ["title", "desc", "metadata", "style", "script"]

    /// The entry a document at `document` shows when its content is exactly one
    /// picture; `nil` for a document with text or several pictures (or one
    /// this scanner cannot read, which is taken for text).
    static func soleImage(in bytes: [UInt8], of document: String) throws -> String? {
        var scanner = XMLScanner(utf8(bytes))
        var images: [String] = []
        var inBody = false, hasText = false, undrawn = 0
        do {
            while let event = try scanner.next() {
                switch event {
                case .start(let name, let attributes, let selfClosing):
                    let local = localName(name)
                    if local == "body" || local == "svg" { inBody = true }
                    if undrawnText.contains(local) && !selfClosing { undrawn += 1 }
                    if local == "img", let source = attributes["src"] { images.append(source) }
                    if local == "image", let source = attributes["xlink:href"] ?? attributes["href"]
                        ?? attributes.first(where: { localName($0.key) == "href" })?.value {
                        images.append(source)
                    }
                case .text(let text):
                    if inBody && undrawn == 0 && text.contains(where: { !$0.isWhitespace }) { hasText = true }
                case .end(let name):
                    if undrawnText.contains(localName(name)) && undrawn > 0 { undrawn -= 1 }
                }
            }
        } catch {
            return nil
        }
        guard images.count == 1, !hasText else { return nil }
        return resolve(images[0], against: document)
    }

    /// `href` (relative, percent-encoded) as an entry path, resolved against the
    /// folder of the entry `base`; `..` is followed inside the book only.
    static func resolve(_ href: String, against base: String) -> String {
        let target = href.split(separator: "#", maxSplits: 1).first.map(String.init) ?? href
        let decoded = target.removingPercentEncoding ?? target
        var parts = base.split(separator: "/").dropLast().map(String.init)
        for part in decoded.split(separator: "/") {
            if part == ".." { if !parts.isEmpty { parts.removeLast() } } else if part != "." { parts.append(String(part)) }
        }
        return parts.joined(separator: "/")
    }
}

extension BookKind {
    /// EPUB (`.epub`): a ZIP whose first entry is `mimetype` holding
    /// `application/epub+zip`; pages in spine order.
    package static let epub = BookKind(
        name: "EPUB", extensions: ["epub"],
        signatures: [ImageFormat.Signature((0, [0x50, 0x4B, 0x03, 0x04]), (30, Array("mimetypeapplication/epub+zip".utf8)))],
        open: EPUBSource.init)
}
