import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

@Suite("Books and plans", .tags(.library), .timeLimit(.minutes(10)))
struct BookTests {
    @Test("A folder's images in natural order; other files, dot-files and __MACOSX ignored; sub-folders walked")
    func loading() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try Fixtures.solidPNG(width: 4, height: 6, [0])
        for name in ["p10.png", "P2.PNG", "p1.png", "notes.txt", ".hidden.png", "__MACOSX/p3.png", "extra/p11.png",
                     "noextension"] {
            try folder.write(name, name == "notes.txt" ? Array("hi".utf8) : png)
        }
        let book = try Book.load(folder.path + "/")
        #expect(book.images.map(\.source) == ["extra/p11.png", "noextension", "p1.png", "P2.PNG", "p10.png"])
        #expect(book.name == URL(fileURLWithPath: folder.path).lastPathComponent)
    }

    /// A link back to a folder above it made the walk go round until the
    /// path grew too long (every page listed dozens of times); two such links
    /// made it go on for ever. Each real folder is walked once.
    @Test("Links back to a folder above, or to a folder already walked: each page listed once, the links named in warnings")
    func folderLinks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/book"
        try folder.write("book/p1.png", try Fixtures.solidPNG(width: 30, height: 40, [10]))
        try folder.write("book/ch2/p2.png", try Fixtures.solidPNG(width: 30, height: 40, [20]))
        try folder.write("book/ch3/p3.png", try Fixtures.solidPNG(width: 30, height: 40, [30]))
        try FileManager.default.createSymbolicLink(atPath: book + "/ch2/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: book + "/ch3/again", withDestinationPath: "../ch2")
        let loaded = try Book.load(book)
        #expect(loaded.images.map(\.source) == ["ch2/p2.png", "ch3/p3.png", "p1.png"])
        #expect(loaded.warnings.map(\.description) == [
            "\(book)/ch2/up: a link to a folder already in the book (skipped: its pages are listed once)",
            "\(book)/ch3/again: a link to a folder already in the book (skipped: its pages are listed once)",
        ])
    }

    /// A page that was a broken link, a named pipe or a device was left out
    /// of the book without a word (every page after it shifted), and a
    /// sniffed name read from a pipe would have waited for a writer for ever.
    @Test("A page that is a broken link, a named pipe or a device fails the book naming it; no read waits")
    func pagesThatAreNotFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/book"
        try folder.write("book/p1.png", try Fixtures.solidPNG(width: 30, height: 40, [10]))
        try folder.write("book/p5.png", try Fixtures.solidPNG(width: 30, height: 40, [50]))
        try FileManager.default.createSymbolicLink(atPath: book + "/p2.png", withDestinationPath: "gone.png")
        #expect(mkfifo(book + "/p3.png", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: book + "/p4.png", withDestinationPath: "/dev/zero")
        #expect(mkfifo(book + "/pipe", 0o644) == 0)  // no page's name: sniffed, refused unread, not a page
        let loaded = try Book.load(book)
        #expect(loaded.images.map(\.source) == ["p1.png", "p2.png", "p3.png", "p4.png", "p5.png"])
        for (name, problem) in [("p2.png", "a symbolic link to a file that does not exist"),
                                ("p3.png", "is a named pipe, not a file"), ("p4.png", "is a device, not a file")] {
            #expect(throws: MihirakiError(.io, path: book + "/" + name, problem)) { _ = try FileSystem.read(book + "/" + name) }
        }
        #expect { _ = try SpreadPlan(book: loaded, options: LayoutOptions()) } throws: {
            ($0 as? MihirakiError)?.description == "\(book)/p2.png: a symbolic link to a file that does not exist"
        }
    }

    @Test("A folder with no images, or no folder at all, is an error naming it")
    func badBooks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("readme.txt", Array("no pages".utf8))
        #expect(throws: MihirakiError(.badBook, path: folder.path, "no page images in this book")) {
            _ = try Book.load(folder.path)
        }
        #expect { _ = try Book.load(folder.path + "/missing") } throws: {
            ($0 as? MihirakiError)?.description.hasSuffix("missing: no such file or folder") == true
        }
        // An empty path was ": no such file or folder", naming nothing.
        #expect(throws: MihirakiError(.badBook, "an empty path names no book")) { _ = try Book.load("") }
    }

    @Test("The manifest is ManifestFormat.md's document, keys in order")
    func manifest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("vol01/p001.png", try Fixtures.solidPNG(width: 1500, height: 2134, [0]))
        try folder.write("vol01/p002.png", try Fixtures.solidPNG(width: 1500, height: 2134, [0]))
        var options = LayoutOptions()
        options.direction = .rtl
        let plan = try SpreadPlan(book: try Book.load(folder.path + "/vol01"), options: options)
        #expect(plan.manifest.json == """
        {
          "book": "vol01",
          "canvas": { "width": 2048, "height": 1536 },
          "layout": "spread",
          "direction": "rtl",
          "spreads": [
            {
              "file": "spread-001.png",
              "slots": [
                { "side": "left", "page": 1, "source": "p001.png", "rect": [37, 66, 987, 1404], "pageSize": [1500, 2134] },
                { "side": "right", "page": null, "blank": true, "rect": [1024, 66, 987, 1404] }
              ]
            },
            {
              "file": "spread-002.png",
              "slots": [
                { "side": "left", "page": null, "blank": true, "rect": [37, 66, 987, 1404] },
                { "side": "right", "page": 2, "source": "p002.png", "rect": [1024, 66, 987, 1404], "pageSize": [1500, 2134] }
              ]
            }
          ]
        }

        """)
        let decoded = try JSONSerialization.jsonObject(with: Data(plan.manifest.json.utf8)) as? [String: Any]
        #expect((decoded?["spreads"] as? [Any])?.count == 2)
        #expect(plan.text == "[1|x]\n[x|2]\n")
    }

    @Test("Wide pages come from the header's aspect, after EXIF orientation, with --wide-threshold")
    func wideDetection() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("1.png", try Fixtures.solidPNG(width: 60, height: 100, [0]))
        try folder.write("2.png", try Fixtures.solidPNG(width: 60, height: 100, [0]))
        try folder.write("3.png", try Fixtures.solidPNG(width: 120, height: 100, [0]))
        // Stored landscape, displayed portrait: not wide.
        let sideways = try JPEGEncoder.encode(Fixtures.solid(width: 100, height: 60, [50]),
                                              exif: Fixtures.exifOrientation(6))
        try folder.write("4.jpg", sideways)
        try folder.write("5.png", try Fixtures.solidPNG(width: 60, height: 100, [0]))
        let book = try Book.load(folder.path)
        #expect(try SpreadPlan(book: book, options: LayoutOptions()).text == "[x|1]\n[2|x]\n[3W]\n[4|5]\n")
        var relaxed = LayoutOptions()
        relaxed.wideThreshold = 1.5
        #expect(try SpreadPlan(book: book, options: relaxed).text == "[x|1]\n[2|3]\n[4|5]\n")
    }

    @Test("File names get at least three digits, more when needed")
    func fileNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try Fixtures.solidPNG(width: 2, height: 3, [0])
        for i in 1...1000 { try folder.write("p\(i).png", png) }
        var options = LayoutOptions()
        options.layout = .single
        let plan = try SpreadPlan(book: try Book.load(folder.path), options: options)
        #expect(plan.entries.first?.file == "spread-0001.png" && plan.entries.last?.file == "spread-1000.png")
        #expect(plan.entries[8].spread == .single(9) && plan.entries[8].file == "spread-0009.png")
    }

    @Test("A page whose header is unreadable fails the plan with the file's path, the decoder's kind and its error")
    func damagedHeader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("1.png", try Fixtures.solidPNG(width: 6, height: 10, [0]))
        let bad = try folder.write("2.png", Array("this is not an image".utf8))
        #expect {
            _ = try SpreadPlan(book: try Book.load(folder.path), options: LayoutOptions())
        } throws: { error in
            guard let error = error as? MihirakiError else { return false }
            return error == MihirakiError(.unsupportedPage, path: bad, "not an image Mihiraki reads (\(ImageFormat.readableNames))")
                && (error.underlying as? CodecError)?.code == .unsupported
        }
        let huge = try folder.write("2.png", Fixtures.pngWithHeader(width: 100_000, height: 100_000))
        #expect {
            _ = try SpreadPlan(book: try Book.load(folder.path), options: LayoutOptions())
        } throws: { ($0 as? MihirakiError)?.code == .tooLarge && ($0 as? MihirakiError)?.path == huge }
        let cut = try folder.write("2.png", Array(try Fixtures.solidPNG(width: 6, height: 10, [0]).prefix(20)))
        #expect {
            _ = try SpreadPlan(book: try Book.load(folder.path), options: LayoutOptions())
        } throws: { ($0 as? MihirakiError)?.code == .badPage && ($0 as? MihirakiError)?.path == cut
        }
    }
}
