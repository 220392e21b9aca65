import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore

/// EPUBs written by the specification's rules (scripts/make-epub-fixtures.py).
@Suite("EPUB books: the spine's pages, in the spine's order and direction", .tags(.library), .timeLimit(.minutes(2)))
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
        let plan = try BookPlan(book: book, options: LayoutOptions())
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
        #expect(try BookPlan(book: book, options: flagged).text == "[x|1]\n[2|3]\n[4|x]\n[5|6]\n[7|8]\n")
    }

    @Test("Declared sides in left to right: page 1 on the left, a centred page alone, flags after them")
    func sidesLeftToRight() throws {
        let book = try Book.load(Self.epub("sides-ltr"))
        let plan = try BookPlan(book: book, options: LayoutOptions())
        #expect(plan.text == "[1|2]\n[3|x]\n[4W]\n[5|x]\n[6|7]\n[8|x]\n")
        #expect(plan.explanation.contains("# page 4 wide (EPUB spine): OEBPS/4.png"), "\(plan.explanation)")
        var flags = LayoutOptions()
        flags.cover = .alone
        #expect(try BookPlan(book: book, options: flags).text.hasPrefix("[x|1]\n[2|3]\n[4W]"), "--cover wins over page 1's side")
        flags = LayoutOptions()
        flags.blankBefore = [2]
        #expect(try BookPlan(book: book, options: flags).text.hasPrefix("[1|x]\n[2|3]\n[4W]"), "--blank-before is added after")
        flags = LayoutOptions()
        flags.layout = .single
        #expect(try BookPlan(book: book, options: flags).text.hasPrefix("[1]\n[2]\n[3]\n[4W]"))
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
        let fromEPUB = try BookPlan(book: book, options: options)
        let fromFolder = try BookPlan(book: try Book.load(folder.path + "/pages"), options: options)
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
}
