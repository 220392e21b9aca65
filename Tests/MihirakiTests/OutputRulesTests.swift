import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki

/// The rules about canvases and output folders live in the library, so a
/// program (or the server) gets them without the command line.
@Suite("Output rules in the library", .tags(.library), .timeLimit(.minutes(10)))
struct OutputRulesTests {
    @Test("A canvas over the pixel limit is a usage error before any page is read")
    func canvasOverLimit() throws {
        var options = LayoutOptions()
        options.size = .exact(width: 60000, height: 60000)
        #expect { try options.validate() } throws: {
            ($0 as? MihirakiError)?.code == .usage && ($0 as? MihirakiError)?.message.contains("--max-pixels") == true
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A page that cannot be read: the canvas is refused first, so the page is never opened.
        try folder.write("book/p1.png", Array("not an image".utf8))
        #expect { _ = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: options) } throws: {
            ($0 as? MihirakiError)?.code == .usage
        }
        options.size = .exact(width: 2048, height: 1536)
        options.maxPixels = 2048 * 1536
        try options.validate()
        options.maxPixels -= 1
        #expect(throws: MihirakiError.self) { try options.validate() }
    }

    @Test("A contact sheet over the pixel limit is refused before anything is written")
    func contactSheetOverLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for i in 1...8 { try folder.write("book/p\(i).png", try Fixtures.solidPNG(width: 20, height: 30, [90])) }
        var options = LayoutOptions()
        options.size = .exact(width: 200, height: 150)
        options.maxPixels = 30000
        let plan = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: options)
        #expect { _ = try renderOne(plan, into: folder.path + "/out", options: runOptions(contactSheet: true)) }
            throws: { ($0 as? MihirakiError)?.code == .usage }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
        // Without the sheet the same book renders.
        #expect(try renderOne(plan, into: folder.path + "/out").succeeded)
    }

    @Test("Two books with one output name: the first is written, the second refused in its outcome")
    func duplicateOutputNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try Fixtures.solidPNG(width: 20, height: 30, [90])
        try folder.write("a/vol1/p1.png", page)
        try folder.write("b/vol1/p1.png", page)
        try folder.writeArchive("vol1.cbz", [("p1.png", page)])
        let plans = try ["a/vol1", "b/vol1", "vol1.cbz"].map {
            try SpreadPlan(book: try Book.load(folder.path + "/" + $0), options: LayoutOptions())
        }
        let outcomes = try BookRenderer.render(plans, into: folder.path + "/out")
        #expect(outcomes.map(\.succeeded) == [true, false, false])
        #expect(outcomes[1].errors.map(\.description)
                == ["\(folder.path)/b/vol1: has the same output folder name as \(folder.path)/a/vol1; refused"])
        #expect(outcomes[1].written.isEmpty && outcomes[2].written.isEmpty)
        let (kept, refused) = BookRenderer.refusingDuplicateNames(plans)
        #expect(kept.map(\.book.path) == [folder.path + "/a/vol1"] && refused.count == 2)
    }

    @Test("An output folder that is a book or inside one is refused, nothing created")
    func outputInsideBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try Fixtures.solidPNG(width: 20, height: 30, [90]))
        let plan = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: LayoutOptions())
        for out in [folder.path + "/book", folder.path + "/book/previews", folder.path + "/book/../book/x"] {
            #expect { _ = try renderOne(plan, into: out) } throws: {
                ($0 as? MihirakiError)?.code == .usage && "\($0)".contains("inside the book")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/book") == ["p1.png"])
    }
}
