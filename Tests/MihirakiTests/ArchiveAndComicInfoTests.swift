import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

@Suite("Archives and ComicInfo.xml", .tags(.library), .timeLimit(.minutes(10)))
struct ArchiveAndComicInfoTests {
    let page: [UInt8] = try! Fixtures.solidPNG(width: 30, height: 50, [0])

    @Test("A CBZ is read in place: nested folders walked, __MACOSX and dot-files skipped, natural order",
          arguments: [false, true])
    func archive(deflate: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.writeArchive("vol01.cbz", [
            ("ch1/p10.png", page), ("ch1/p2.png", page), ("ch1/p1.png", page), ("__MACOSX/ch1/._p1.png", page),
            (".DS_Store", [0]), ("ch1/.hidden.png", page), ("notes.txt", Array("hi".utf8)), ("ch2/p1.jpg", page),
        ], deflate: deflate)
        let book = try Book.load(path)
        #expect(book.name == "vol01.cbz" && book.outputName == "vol01")
        #expect(book.images.map(\.source) == ["ch1/p1.png", "ch1/p2.png", "ch1/p10.png", "ch2/p1.jpg"])
        #expect(try book.read(book.images[0]) == page)
        let plan = try SpreadPlan(book: book, options: LayoutOptions())
        #expect(plan.text == "[x|1]\n[2|3]\n[4|x]\n")
        #expect(plan.manifest.json.contains("\"book\": \"vol01.cbz\""))
        #expect(plan.manifest.json.contains("\"source\": \"ch2/p1.jpg\""))
    }

    @Test("A broken archive is an error naming it")
    func brokenArchive() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("broken.cbz", Array("PK\u{3}\u{4} this is not really a zip".utf8))
        #expect { _ = try Book.load(path) } throws: {
            ($0 as? MihirakiError)?.description == "\(path): not a readable ZIP archive"
        }
        let text = try folder.write("notes.txt", Array("hello".utf8))
        #expect { _ = try Book.load(text) } throws: {
            ($0 as? MihirakiError)?.message == "not a folder or a book file Mihiraki reads (\(BookKind.names))"
        }
    }

    @Test("An entry whose data is damaged is an error naming archive and entry")
    func damagedEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.writeArchive("vol.zip", [("p1.png", page), ("p2.png", page)])
        var bytes = try Fixtures.bytes(URL(fileURLWithPath: path))
        // Flip a byte inside the second entry's pixel data (stored, so its bytes appear verbatim).
        let marker = Array("IDAT".utf8)
        let second = (0..<bytes.count - 4).filter { Array(bytes[$0..<$0 + 4]) == marker }[1]
        bytes[second + 6] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let book = try Book.load(path)
        #expect { _ = try book.read(book.images[1]) } throws: {
            ($0 as? MihirakiError)?.description == "\(path):p2.png: entry is damaged (CRC mismatch)"
        }
    }

    @Test("ComicInfo: Manga=YesAndRightToLeft means RTL, No means LTR, others keep the default; flags win")
    func manga() throws {
        for (value, expected) in [("YesAndRightToLeft", ReadingDirection.rtl), ("No", .ltr), ("Yes", .ltr), ("Unknown", .ltr)] {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try folder.writeArchive("b.cbz", [("ComicInfo.xml", comicInfoXML(manga: value)), ("1.png", page), ("2.png", page)])
            let book = try Book.load(folder.path + "/b.cbz")
            let plan = try SpreadPlan(book: book, options: LayoutOptions())
            #expect(plan.direction == expected)
            #expect(plan.decisions.directionOrigin == (value.hasPrefix("Yes") && value != "Yes" || value == "No" ? .comicInfo : .default))
            var forced = LayoutOptions()
            forced.direction = .ltr
            let flagged = try SpreadPlan(book: book, options: forced)
            #expect(flagged.direction == .ltr && flagged.decisions.directionOrigin == .flag)
        }
    }

    @Test("ComicInfo pages: 0-based Image, Deleted drops, DoublePage makes wide, FrontCover noted")
    func pages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for i in 1...6 { try folder.write("book/p\(i).png", page) }
        try folder.write("book/ComicInfo.xml", comicInfoXML(manga: "YesAndRightToLeft", pages: [
            "Image=\"0\" Type=\"FrontCover\"", "Image=\"2\" Type=\"Story Deleted\"", "Image=\"4\" DoublePage=\"true\"",
        ]))
        let plan = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: LayoutOptions())
        // Images p1…p6; p3 deleted → pages 1…5 = p1 p2 p4 p5 p6; p5 (page 4) wide.
        #expect(plan.pages.map(\.source) == ["p1.png", "p2.png", "p4.png", "p5.png", "p6.png"])
        #expect(plan.text == "[1|x]\n[3|2]\n[4W]\n[x|5]\n")
        #expect(plan.decisions.wide == [4: .comicInfo])
        #expect(plan.decisions.coverOrigin == .comicInfo && plan.decisions.deleted == ["p3.png"])
        #expect(plan.explanation.contains("# direction rtl (ComicInfo.xml)"))
        #expect(plan.explanation.contains("# page 4 wide (ComicInfo.xml): p5.png"))
        #expect(plan.explanation.contains("# deleted (ComicInfo.xml): p3.png"))
    }

    @Test("A malformed ComicInfo.xml is a warning, not a failed book")
    func malformed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", page)
        try folder.write("book/ComicInfo.xml", Array("<ComicInfo><Manga>YesAndRightToLeft</Mang".utf8))
        let book = try Book.load(folder.path + "/book")
        #expect(book.comicInfo == nil)
        let warning = try #require(book.warnings.first)
        #expect(book.warnings.count == 1)
        #expect(warning.description.hasPrefix(folder.path + "/book/ComicInfo.xml: ignored: malformed XML"))
        #expect(try SpreadPlan(book: book, options: LayoutOptions()).direction == .ltr)
    }

    /// Regression fixtures from fuzzing: each once crashed the process (inside
    /// FoundationXML, which Mihiraki therefore no longer uses).
    @Test("Inputs the fuzzer found are errors, not crashes", arguments: [
        ("comicinfo-invalid-utf8-tag.xml", "not UTF-8 text"),
        ("comicinfo-empty-processing-instruction.xml", "malformed XML"),
    ])
    func fuzzRegressions(name: String, error: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("fuzz-regressions/" + name))
        #expect { _ = try ComicInfo.parse(bytes) } throws: { ($0 as? ComicInfo.Malformed)?.message.hasPrefix(error) == true }
    }

    @Test("The XML scanner: references, comments, CDATA, declarations; malformed documents named", arguments: [
        ("<?xml version='1.0'?><!DOCTYPE x><ComicInfo><!-- c --><Manga><![CDATA[No]]></Manga></ComicInfo>", "ltr"),
        ("<ComicInfo>\n <Manga>Yes&#65;nd&#x52;ightToLeft</Manga>\n</ComicInfo>", "rtl"),
        ("<ComicInfo><Manga>YesAndRightToLeft</Manga><Pages><Page Image='1' Type=\"A&amp;B\"/></Pages></ComicInfo>", "rtl"),
        ("<ComicInfo><Manga>No</Manga>", "error"),
        ("<ComicInfo><Manga>No</Mang></ComicInfo>", "error"),
        ("<Other/>", "error"),
        ("<ComicInfo a=b/>", "error"),
        ("<ComicInfo>&bogus;</ComicInfo>", "error"),
        ("<ComicInfo/><ComicInfo/>", "error"),
        ("<ComicInfo><!-- never closed </ComicInfo>", "error"),
        ("", "error"),
    ])
    func scanner(document: String, expected: String) {
        switch (Result { try ComicInfo.parse(Array(document.utf8)) }, expected) {
        case (.success(let info), "rtl"): #expect(info.direction == .rightToLeft)
        case (.success(let info), "ltr"): #expect(info.direction == .leftToRight)
        case (.failure(let error), "error"):
            #expect((error as? ComicInfo.Malformed)?.message.hasPrefix("malformed XML near line") == true)
        default: Issue.record("\(document) gave the wrong outcome")
        }
    }

    @Test("ComicInfo parsing reads only what matters and ignores the rest")
    func parsing() throws {
        let info = try ComicInfo.parse(comicInfoXML(manga: " YesAndRightToLeft ", pages: [
            "Image=\"3\" Type=\"FrontCover InnerCover\" DoublePage=\"True\"", "Image=\"x\"", "Image=\"-1\"",
        ]))
        #expect(info.direction == .rightToLeft)
        #expect(info.pages.count == 1 && info.pages[3]?.doublePage == true && info.pages[3]?.isFrontCover == true)
        #expect(throws: ComicInfo.Malformed.self) { _ = try ComicInfo.parse(Array("<NotComicInfo/>".utf8)) }
    }
}

@Suite("Many books, thumbnails and contact sheets", .tags(.library), .timeLimit(.minutes(10)))
struct LibraryTests {
    @Test("--size x300 and 400x derive the other side from the spread's natural aspect")
    func derivedSize() {
        let height = CanvasSize(parsing: "x300")!.resolved(layout: .spread, pageAspect: .standard, gap: 0)
        #expect(height.width == 386 && height.height == 300)          // 2·771·300/1200 = 385.5 → 386
        let width = CanvasSize(parsing: "400x")!.resolved(layout: .spread, pageAspect: .standard, gap: 10)
        #expect(width.width == 400 && width.height == 304)           // (400 − 10)·1200/1542 = 303.502 → 304
        let single = CanvasSize(parsing: "x1200")!.resolved(layout: .single, pageAspect: .standard, gap: 99)
        #expect(single.width == 771 && single.height == 1200)
        #expect(CanvasSize(parsing: "x") == nil && CanvasSize(parsing: "0x5") == nil && CanvasSize(parsing: "axb") == nil)
        #expect(CanvasSize(parsing: "2048x1536") == .exact(width: 2048, height: 1536))
    }

    @Test("A derived canvas has no bars: the page slots fill it")
    func noBars() throws {
        var options = LayoutOptions()
        options.size = CanvasSize(parsing: "x300")!
        let frames = SlotFrames(options: options.geometry)
        #expect(frames.left.rect.x == 0 && frames.right.rect.x + frames.right.rect.width == options.canvas.width)
    }

    @Test("Several books in one run: each complete, a broken one reported, byte-identical for any jobs")
    func manyBooks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try Fixtures.solidPNG(width: 30, height: 50, [0, 90, 200])
        for i in 1...3 { try folder.write("lib/a/p\(i).png", page) }
        try folder.writeArchive("lib/b.cbz", [("1.png", page), ("2.png", page)])
        try folder.write("lib/c/p1.png", page)
        try folder.write("lib/c/p2.png", Array(page.prefix(60)))  // header readable, data cut
        var options = LayoutOptions()
        options.size = .exact(width: 120, height: 80)
        var runs: [[String: Data]] = []
        for jobs in [1, 3] {
            let plans = try ["a", "b.cbz", "c"].map { try SpreadPlan(book: try Book.load(folder.path + "/lib/" + $0), options: options) }
            let out = folder.path + "/out\(jobs)"
            let outcomes = try BookRenderer.render(plans, into: out, options: runOptions(jobs: jobs, contactSheet: true))
            #expect(outcomes.map(\.succeeded) == [true, true, false])
            #expect(outcomes[2].errors.map(\.path) == [folder.path + "/lib/c/p2.png"])
            var files: [String: Data] = [:]
            for book in ["a", "b"] {
                for name in try FileManager.default.contentsOfDirectory(atPath: out + "/" + book) {
                    files[book + "/" + name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + book + "/" + name))
                }
            }
            #expect(files.keys.sorted() == ["a/contact-sheet.png", "a/manifest.json", "a/spread-001.png", "a/spread-002.png",
                                            "b/contact-sheet.png", "b/manifest.json", "b/spread-001.png", "b/spread-002.png"])
            runs.append(files)
        }
        #expect(runs[0] == runs[1])
    }

    @Test("The contact sheet shows every spread, four to a row, labelled")
    func contactSheet() throws {
        let tile = ContactSheet.tile(Fixtures.solid(width: 640, height: 480, [200]))
        #expect(tile.width == 320 && tile.height == 240 && tile.channels == 3)
        let sheet = ContactSheet.make(tiles: Array(repeating: tile, count: 5), labels: ["[x|1]", "[2|3]", "[4W]", "[5|6]", "[7|x]"])
        #expect(sheet.width == 16 + 4 * (320 + 16))
        #expect(sheet.height == 16 + 2 * (240 + ContactSheet.labelHeight + 16))
        #expect(sheet.rgba(x: 16, y: 16) == Color(gray: 200))
        #expect(sheet.rgba(x: 5, y: 5) == ContactSheet.background)
        // Label ink appears under the first tile.
        let labelRow = (16 + 240 + 6)..<(16 + 240 + 6 + 14)
        #expect(labelRow.contains { y in (16..<336).contains { x in sheet.rgba(x: x, y: y) == ContactSheet.ink } })
    }
}

extension RealRect {
    var rect: PixelRect { snapped }
}
