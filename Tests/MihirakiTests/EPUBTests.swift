import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore

/// EPUBs written by the specification's rules (scripts/make-epub-fixtures.py).
@Suite("EPUB books: the spine's pages, in the spine's order and direction", .tags(.library), .timeLimit(.minutes(10)))
struct EPUBTests {
    static func epub(_ name: String) -> String { Fixtures.testImages.appendingPathComponent("epub/\(name).epub").path }

    @Test("A converter's EPUB: the cover in its SVG wrapper comes first, though its picture sorts last by name")
    func converterOrder() throws {
        let book = try Book.load(Self.epub("converter"))
        #expect(book.images.map(\.source) == ["OEBPS/Images/cover.jpeg"] + (0...4).map { "OEBPS/Images/0_\($0).png" })
        #expect(book.outputName == "converter")
    }

    @Test("EPUB 3 pre-paginated, right to left: the spine's order and direction, percent-encoded and SVG-wrapped pictures")
    func fixedRightToLeft() throws {
        let book = try Book.load(Self.epub("fixed-rtl"))
        #expect(book.images.map(\.source) == (1...8).map { "OEBPS/images/z\(String(format: "%02d", 10 - $0)) page.png" })
        let plan = try SpreadPlan(book: book, options: LayoutOptions())
        // Page 1 page-spread-right pairs the cover in RTL; page 5 page-spread-left needs one blank.
        #expect(plan.text == "[2|1]\n[4|3]\n[5|x]\n[7|6]\n[x|8]\n")
        for line in ["# direction rtl (EPUB spine)", "# cover paired (EPUB spine)",
                     "# page 1 on the right (EPUB spine): OEBPS/images/z09 page.png\n",
                     "# page 5 on the left (EPUB spine): OEBPS/images/z05 page.png; a blank before it puts it there"] {
            #expect(plan.explanation.contains(line), "\(plan.explanation)")
        }
        var flagged = LayoutOptions()
        flagged.direction = .ltr
        // A flag comes before the spine's direction; the sides then hold in left to right.
        #expect(try SpreadPlan(book: book, options: flagged).text == "[x|1]\n[2|3]\n[4|x]\n[5|6]\n[7|8]\n")
    }

    @Test("Declared sides in left to right: page 1 on the left, a centred page alone, flags after them")
    func sidesLeftToRight() throws {
        let book = try Book.load(Self.epub("sides-ltr"))
        let plan = try SpreadPlan(book: book, options: LayoutOptions())
        #expect(plan.text == "[1|2]\n[3|x]\n[4W]\n[5|x]\n[6|7]\n[8|x]\n")
        #expect(plan.explanation.contains("# page 4 wide (EPUB spine): OEBPS/4.png"), "\(plan.explanation)")
        var flags = LayoutOptions()
        flags.cover = .alone
        #expect(try SpreadPlan(book: book, options: flags).text.hasPrefix("[x|1]\n[2|3]\n[4W]"), "--cover wins over page 1's side")
        flags = LayoutOptions()
        flags.blankBefore = [2]
        #expect(try SpreadPlan(book: book, options: flags).text.hasPrefix("[1|x]\n[2|3]\n[4W]"), "--blank-before is added after")
        flags = LayoutOptions()
        flags.layout = .single
        #expect(try SpreadPlan(book: book, options: flags).text.hasPrefix("[1]\n[2]\n[3]\n[4W]"))
    }

    @Test("An EPUB renders byte-identical to the folder of its pictures in spine order", arguments: ["epub2-fixed", "converter"])
    func sameAsFolder(name: String) throws {
        let book = try Book.load(Self.epub(name))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (index, page) in book.images.enumerated() {
            let ext = (page.source as NSString).pathExtension
            try folder.write("pages/p\(index + 1).\(ext)", try book.read(page))
        }
        var options = LayoutOptions()
        options.size = .exact(width: 400, height: 300)
        let fromEPUB = try SpreadPlan(book: book, options: options)
        let fromFolder = try SpreadPlan(book: try Book.load(folder.path + "/pages"), options: options)
        #expect(fromEPUB.spreadCount == fromFolder.spreadCount && fromEPUB.spreadCount > 1)
        for index in 0..<fromEPUB.spreadCount {
            #expect(try fromEPUB.spreadFile(at: index) == fromFolder.spreadFile(at: index), "spread \(index + 1)")
        }
    }

    @Test("A reflowable EPUB fails in one line naming its first text item; so does one whose pages are encrypted")
    func refused() throws {
        #expect { _ = try Book.load(Self.epub("novel")) } throws: { error in
            let message = (error as? MihirakiError)?.message ?? ""
            return message.contains("reflowable") && message.contains("EPUB/ch1.xhtml") && !message.contains("\n")
        }
        #expect { _ = try Book.load(Self.epub("drm")) } throws: { error in
            let message = (error as? MihirakiError)?.message ?? ""
            return message.contains("encrypted") && message.contains("OEBPS/2.png")
        }
    }

    @Test("Hrefs resolve against their document, percent-decoded, never above the book")
    func resolving() {
        #expect(EPUBSource.resolve("../Images/a%20b.png#x", against: "OEBPS/Text/p.xhtml") == "OEBPS/Images/a b.png")
        #expect(EPUBSource.resolve("../../../../etc/passwd", against: "OEBPS/p.xhtml") == "etc/passwd")
        #expect(EPUBSource.resolve("./c.jpg", against: "c.opf") == "c.jpg")
    }

    /// An EPUB written here: `mimetype` first and stored, the container, the
    /// package document `package` (its bytes as given) and `files`.
    static func writeEPUB(_ folder: TemporaryFolder, _ name: String, package: [UInt8], files: [(String, [UInt8])],
                          container: String? = nil) throws -> String {
        let containerXML = container ?? """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """
        return try folder.writeArchive(name, [("mimetype", Array("application/epub+zip".utf8)),
                                              ("META-INF/container.xml", Array(containerXML.utf8)),
                                              ("OEBPS/content.opf", package)] + files)
    }

    static func package(items: String, spine: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">\
        <metadata/><manifest>\(items)</manifest><spine>\(spine)</spine></package>
        """
    }

    /// Every document was read whole: an EPUB of 310 KB whose page document
    /// inflated to 300 MiB made loading it (which `serve` does in its own
    /// process) hold 950 MB.
    @Test("A document over 16 MiB fails the EPUB in one line naming it; one of 1 MiB is read")
    func largeDocuments() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let items = #"<item id="a" href="page.xhtml" media-type="application/xhtml+xml"/><item id="i" href="p1.png" media-type="image/png"/>"#
        let package = Array(Self.package(items: items, spine: #"<itemref idref="a"/>"#).utf8)
        let png = try Fixtures.solidPNG(width: 60, height: 90, [50])
        for (name, padding) in [("small.epub", 1 << 20), ("large.epub", 17 << 20)] {
            let page = Array("<html><body>".utf8) + [UInt8](repeating: 0x20, count: padding) + Array(#"<img src="p1.png"/></body></html>"#.utf8)
            let path = try Self.writeEPUB(folder, name, package: package, files: [("OEBPS/page.xhtml", page), ("OEBPS/p1.png", png)])
            if padding < 16 << 20 {
                #expect(try Book.load(path).images.map(\.source) == ["OEBPS/p1.png"])
            } else {
                #expect(throws: MihirakiError(.badBook, path: path,
                                              "OEBPS/page.xhtml is larger than 16 MiB, more than any document of an EPUB of pictures holds")) {
                    _ = try Book.load(path)
                }
            }
        }
    }

    /// Issue reproductions: a non-linear picture was dropped without a word,
    /// an SVG spine document (the W3C fixed-layout test book's form) refused,
    /// a UTF-16 package document read as garbage.
    @Test("Non-linear pictures are pages, an SVG spine document shows its picture, a UTF-16 package document is read; non-linear text is named")
    func spineItems() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try Fixtures.solidPNG(width: 60, height: 90, [50])
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 60 90"><image width="60" height="90" xlink:href="p2.png"/></svg>"#.utf8)
        let items = #"<item id="a" href="p1.png" media-type="image/png"/><item id="b" href="page2.svg" media-type="image/svg+xml"/>"#
            + #"<item id="i2" href="p2.png" media-type="image/png"/><item id="c" href="p3.png" media-type="image/png"/>"#
            + #"<item id="n" href="nav.xhtml" media-type="application/xhtml+xml"/>"#
        let spine = #"<itemref idref="a"/><itemref idref="b"/><itemref idref="c" linear="no"/><itemref idref="n" linear="no"/>"#
        let files: [(String, [UInt8])] = [("OEBPS/p1.png", png), ("OEBPS/page2.svg", svg), ("OEBPS/p2.png", png), ("OEBPS/p3.png", png),
                                          ("OEBPS/nav.xhtml", Array("<html><body><nav>Contents</nav></body></html>".utf8))]
        let text = Self.package(items: items, spine: spine)
        let units = Array(text.replacingOccurrences(of: "UTF-8", with: "UTF-16").utf16)
        let utf16: [UInt8] = [0xFF, 0xFE] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let variants: [(String, [UInt8])] = [("utf8.epub", Array(text.utf8)), ("utf16.epub", utf16)]
        for (name, bytes) in variants {
            let book = try Book.load(try Self.writeEPUB(folder, name, package: bytes, files: files))
            #expect(book.images.map(\.source) == ["OEBPS/p1.png", "OEBPS/p2.png", "OEBPS/p3.png"], "\(name)")
            #expect(book.warnings.map(\.description) == ["\(folder.path)/\(name):OEBPS/nav.xhtml: not shown: a non-linear spine item of text, not a picture"],
                    "\(name): \(book.warnings)")
        }
    }

    /// The W3C EPUB tests' "embedded images svg" book: each spine item an
    /// SVG document with an accessible `<title>` and `<desc>` beside its one
    /// `<image>` (in ../images/), pre-paginated. It was refused as
    /// reflowable for the words of its title; words an SVG draws (`<text>`)
    /// still make a page of text.
    @Test("SVG spine documents with a title and a description are pages of their picture; one that draws text is refused")
    func svgWithTitleAndDescription() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try Fixtures.solidPNG(width: 60, height: 90, [50])
        func plate(_ letter: String, drawn: String = "") -> [UInt8] {
            Array("""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 60 90">
                <title>\(letter) APPLE PIE</title>
                <desc>The text on top of the page says "\(letter) DEALT IT".</desc>
                <image xlink:href="../images/\(letter).png" width="60" height="90" />\(drawn)
            </svg>
            """.utf8)
        }
        let items = #"<item id="d" href="plates/D.svg" media-type="image/svg+xml" properties="rendition:page-spread-right"/>"#
            + #"<item id="e" href="plates/E.svg" media-type="image/svg+xml"/>"#
            + #"<item id="di" href="images/D.png" media-type="image/png"/><item id="ei" href="images/E.png" media-type="image/png"/>"#
        let package = Array(Self.package(items: items, spine: #"<itemref idref="d"/><itemref idref="e"/>"#).utf8)
        let files: [(String, [UInt8])] = [("OEBPS/images/D.png", png), ("OEBPS/images/E.png", png)]
        let book = try Book.load(try Self.writeEPUB(folder, "svg.epub", package: package,
                                                    files: files + [("OEBPS/plates/D.svg", plate("D")), ("OEBPS/plates/E.svg", plate("E"))]))
        #expect(book.images.map(\.source) == ["OEBPS/images/D.png", "OEBPS/images/E.png"])
        let texted = try Self.writeEPUB(folder, "text.epub", package: package,
                                        files: files + [("OEBPS/plates/D.svg", plate("D")),
                                                        ("OEBPS/plates/E.svg", plate("E", drawn: "<text x=\"5\" y=\"5\">E</text>"))])
        #expect { _ = try Book.load(texted) } throws: { error in
            let text = (error as? MihirakiError)?.description ?? "\(error)"
            return text.contains("OEBPS/plates/E.svg") && text.contains("reflowable")
        }
    }

    /// Malformed XML exited 2 with `Malformed(reason: "missing name")` and no
    /// file named; an encrypted XHTML page with a percent-encoded URI was
    /// called reflowable.
    @Test("Malformed XML fails the book naming the file inside it; an encrypted XHTML page is named as encrypted")
    func malformedAndEncrypted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try Fixtures.solidPNG(width: 60, height: 90, [50])
        let good = Self.package(items: #"<item id="a" href="p1.png" media-type="image/png"/>"#, spine: #"<itemref idref="a"/>"#)
        let broken = try Self.writeEPUB(folder, "broken.epub", package: Array(good.utf8), files: [("OEBPS/p1.png", png)],
                                        container: "<container><rootfiles><rootfile full-path=\"OEBPS/content.opf\"/></ <oops")
        #expect { _ = try Book.load(broken) } throws: { error in
            let text = (error as? MihirakiError)?.description ?? "\(error)"
            return text.hasPrefix(broken + ": ") && text.contains("META-INF/container.xml is not well-formed XML") && !text.contains("\n")
        }
        let locked = Self.package(items: #"<item id="a" href="Text/page%201.xhtml" media-type="application/xhtml+xml"/>"#,
                                  spine: #"<itemref idref="a"/>"#)
        let encryption = #"<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/Text/page%201.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>"#
        let drm = try Self.writeEPUB(folder, "drm.epub", package: Array(locked.utf8),
                                     files: [("OEBPS/Text/page 1.xhtml", [0x8F, 0x11, 0xC3, 0x00, 0x7E]),
                                             ("META-INF/encryption.xml", Array(encryption.utf8))])
        #expect { _ = try Book.load(drm) } throws: { error in
            let message = (error as? MihirakiError)?.message ?? ""
            return message == "an encrypted EPUB (DRM): its page OEBPS/Text/page 1.xhtml is encrypted"
        }
    }
}

