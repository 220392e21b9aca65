import Foundation
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing

/// `compare` on two book folders that render wrote reads both manifests
/// (SPEC §5b): plan changes first, then a verdict per page, so a change a
/// line of options explains reads as that line, and a change on one page
/// names the page.
@Suite("Command line: compare knows the spreads", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct CompareBooksCLITests {
    /// A page of 200×300 whose texture is shifted by (dx, dy), with a
    /// 40×40 patch recoloured at (60, 100) when asked.
    static func page(_ seed: Int, dx: Int = 0, dy: Int = 0, patch: Bool = false) throws -> [UInt8] {
        var image = PixelBuffer(width: 200, height: 300, channels: 3)
        for y in 0..<300 {
            for x in 0..<200 {
                let (u, v) = (x - dx, y - dy)
                let i = (y * 200 + x) * 3
                image.pixels[i] = UInt8(truncatingIfNeeded: (u * 7 + v * 3 + seed * 40) & 255)
                image.pixels[i + 1] = UInt8(truncatingIfNeeded: ((u / 9 + v / 11) % 2 == 0 ? 40 : 210) + seed)
                image.pixels[i + 2] = UInt8(truncatingIfNeeded: (v * 5 - u + seed * 17) & 255)
                if patch && (60..<100).contains(x) && (100..<140).contains(y) {
                    image.pixels[i] = 250; image.pixels[i + 1] = 20; image.pixels[i + 2] = 30
                }
            }
        }
        return try PNGEncoder.encode(image)
    }

    /// Renders `book` with `flags` into `out`; the book folder render wrote.
    static func render(_ book: String, _ out: String, _ flags: [String] = []) throws -> String {
        // Pages drawn at their own size: a shift of the page is a shift of its pixels.
        let run = try mihiraki(["render", book, "-o", out, "--size", "x300", "--page-aspect", "200x300", "--quiet"] + flags)
        #expect(run.status == 0, "\(run.stderr)")
        return out + "/" + URL(fileURLWithPath: book).lastPathComponent
    }

    static func book(_ folder: TemporaryFolder, _ name: String, pages: Int = 12,
                     _ change: (Int) throws -> [UInt8]? = { _ in nil }) throws -> String {
        for i in 1...pages { try folder.write("\(name)/p\(i).png", try change(i) ?? page(i)) }
        return folder.path + "/" + name
    }

    @Test("LTR against RTL is one line, the direction; a blank inserted before page 12 is the page that moved; the same render is ok")
    func planChanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = try Self.book(folder, "book")
        let ltr = try Self.render(book, folder.path + "/ltr")
        let rtl = try Self.render(book, folder.path + "/rtl", ["--direction", "rtl"])
        let flipped = try mihiraki(["compare", ltr, rtl])
        #expect(flipped.status == 1)
        #expect(flipped.stdout == "direction ltr → rtl\n", "\(flipped.stdout)")
        let blank = try Self.render(book, folder.path + "/blank", ["--blank-before", "12"])
        let inserted = try mihiraki(["compare", ltr, blank])
        // [10|11] [12|x] becomes [10|11] [x|12].
        #expect(inserted.status == 1)
        #expect(inserted.stdout == "page 12: spread 7 left → spread 7 right\n", "\(inserted.stdout)")
        let same = try mihiraki(["compare", ltr, try Self.render(book, folder.path + "/again")])
        #expect(same.status == 0 && same.stdout == "ok: 12 pages and every background the same\n", "\(same.stdout)")
        // --json: today's keys, the plan beside the files, each file's page slots.
        let json = try mihiraki(["compare", ltr, blank, "--json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["ok"] as? Bool == false)
        let plan = document["plan"] as? [[String: Any]] ?? []
        #expect(plan.count == 1 && plan.first?["page"] as? Int == 12, "\(json.stdout.prefix(400))")
        #expect((plan.first?["was"] as? [String: Any])?["side"] as? String == "left")
        #expect((plan.first?["now"] as? [String: Any])?["side"] as? String == "right")
        let files = document["files"] as? [[String: Any]] ?? []
        let seventh = files.first { $0["file"] as? String == "spread-007.png" }
        let slots = seventh?["slots"] as? [[String: Any]] ?? []
        #expect(slots.map { $0["verdict"] as? String } == ["same", "same"], "\(slots)")  // page 12 and the background
        #expect(seventh?["status"] as? String == "diff" && seventh?["differingPixels"] as? Int ?? 0 > 0)
    }

    @Test("A page whose content moved 2 px is 'moved (2, 1)' and passes; a 40×40 recolour is 'changed' with its region; pages after a removed one moved one slot earlier")
    func slotVerdicts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let expected = try Self.render(try Self.book(folder, "book"), folder.path + "/a")
        let shifted = try Self.render(try Self.book(folder, "book", { $0 == 5 ? try Self.page(5, dx: 2, dy: 1) : nil }),
                                      folder.path + "/b")
        let moved = try mihiraki(["compare", expected, shifted])
        #expect(moved.status == 0, "\(moved.stdout)")
        #expect(moved.stdout == "page 5, spread-003.png right: moved (2, 1)\n", "\(moved.stdout)")
        let patched = try Self.render(try Self.book(folder, "book", { $0 == 5 ? try Self.page(5, patch: true) : nil }),
                                      folder.path + "/c")
        let changed = try mihiraki(["compare", expected, patched])
        #expect(changed.status == 1)
        let line = changed.stdout.split(separator: "\n")
        #expect(line.count == 1 && line[0].hasPrefix("page 5, spread-003.png right: changed, "), "\(changed.stdout)")
        // Page 5 is drawn at (1024 - ... ) as it is: its region is the patch, in the page's and the canvas's pixels.
        #expect(line.first?.contains("page [60, 100, 40, 40]") == true, "\(changed.stdout)")
        #expect(line.first.map { $0.contains("canvas [") } == true)
        // JUnit: the plan, then a case per page slot, the recoloured page the one failure.
        let junit = folder.path + "/junit.xml"
        #expect(try mihiraki(["compare", expected, patched, "--junit", junit]).status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="20" failures="1""#), "\(xml.prefix(300))")  // 1 plan + 12 pages + 7 backgrounds
        #expect(xml.contains(#"<testcase classname="book/spread-003" name="page-5">"#), "\(xml)")
        #expect(xml.contains(#"<testcase classname="book" name="plan"/>"#), "\(xml.prefix(600))")
        // p3.png removed: pages 4–12 (as numbered before) each take the place of the one before.
        try FileManager.default.removeItem(atPath: folder.path + "/book/p3.png")
        let fewer = try Self.render(folder.path + "/book", folder.path + "/d")
        let removed = try mihiraki(["compare", expected, fewer])
        #expect(removed.status == 1)
        #expect(removed.stdout.hasPrefix("spreads 7 → 6\npages 4–12: one slot earlier\npage 3: removed\n"), "\(removed.stdout)")
        #expect(removed.stdout.contains("page 3, spread-002.png right: removed\n"), "\(removed.stdout)")
    }

    /// `--update` rewrote every golden, so a one-page change was a new
    /// file time on every spread and a diff nobody could review.
    @Test("render --check --update changed rewrites only the goldens whose bytes differ; the others keep their bytes and times")
    func updateChanged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = try Self.book(folder, "book")
        let goldens = folder.path + "/goldens"
        let flags = ["--size", "x300", "--page-aspect", "200x300", "--quiet"]
        let first = try mihiraki(["render", book, "--check", goldens, "--update"] + flags)
        #expect(first.status == 0, "\(first.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: goldens + "/book").sorted()
        // Every golden an hour old, so a rewrite shows in its time.
        let old = Date(timeIntervalSinceNow: -3600)
        for file in files { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: goldens + "/book/" + file) }
        try folder.write("book/p5.png", try Self.page(5, patch: true))
        let update = try mihiraki(["render", book, "--check", goldens, "--update", "changed"] + flags)
        #expect(update.status == 0, "\(update.stderr)")
        var rewritten: [String] = []
        for file in files {
            let date = try FileManager.default.attributesOfItem(atPath: goldens + "/book/" + file)[.modificationDate] as? Date
            if let date, date > old.addingTimeInterval(60) { rewritten.append(file) }
        }
        // Page 5 is on spread 3; the manifest records the book's new fingerprint.
        #expect(rewritten == ["manifest.json", "spread-003.png"], "\(rewritten)")
        #expect(try mihiraki(["render", book, "--check", goldens] + flags).status == 0)
    }

    /// Two pages' pictures exchanged between their files: each page shows
    /// the other's content, said in one word each, not two changes.
    @Test("Two pages whose pictures were exchanged are 'swapped', each naming the other")
    func swappedPages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let expected = try Self.render(try Self.book(folder, "book"), folder.path + "/a")
        let swapped = try Self.render(try Self.book(folder, "book", { $0 == 4 ? try Self.page(5) : $0 == 5 ? try Self.page(4) : nil }),
                                      folder.path + "/b")
        let run = try mihiraki(["compare", expected, swapped])
        #expect(run.status == 1)
        #expect(run.stdout == "page 4, spread-003.png left: swapped, shows page 5\npage 5, spread-003.png right: swapped, shows page 4\n",
                "\(run.stdout)")
    }

    /// The issue's own example, at a size where a left and a right slot are
    /// drawn a pixel apart in width (each edge rounded on its own), between
    /// two OUTDIRs: one line a book, the book's name before it.
    @Test("Two OUTDIRs: the sample book LTR against RTL at x200 is one line; a book on one side only is 'missing'; --json lists books")
    func outdirs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = Fixtures.sampleBook.path
        try FileManager.default.copyItem(atPath: sample, toPath: folder.path + "/other")
        #expect(try mihiraki(["render", sample, folder.path + "/other", "-o", folder.path + "/ltr", "--size", "x200", "--quiet"]).status == 0)
        #expect(try mihiraki(["render", sample, "-o", folder.path + "/rtl", "--size", "x200", "--direction", "rtl", "--quiet"]).status == 0)
        let run = try mihiraki(["compare", folder.path + "/ltr", folder.path + "/rtl"])
        #expect(run.status == 1)
        #expect(run.stdout == "other: missing\nsample-book: direction ltr → rtl\n", "\(run.stdout)")
        let json = try mihiraki(["compare", folder.path + "/ltr", folder.path + "/rtl", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let books = document["books"] as? [[String: Any]] ?? []
        #expect(document["ok"] as? Bool == false && books.map { $0["book"] as? String } == ["other", "sample-book"])
        #expect((books.last?["plan"] as? [[String: Any]])?.first?["change"] as? String == "direction")
    }

    @Test("A manifest missing on one side, or one Mihiraki cannot read, is a one-line note and a comparison file by file")
    func manifestFallback() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = try Self.book(folder, "book", pages: 3)
        let a = try Self.render(book, folder.path + "/a"), b = try Self.render(book, folder.path + "/b")
        try FileManager.default.removeItem(atPath: b + "/manifest.json")
        let missing = try mihiraki(["compare", a, b])
        #expect(missing.status == 0 && missing.stderr == "mihiraki: note: \(b) has no manifest.json: comparing file by file\n",
                "\(missing.stderr)")
        #expect(missing.stdout.contains("spread-001.png: ok"), "\(missing.stdout)")
        try Array(#"{"book": "old", "spreads": 3}"#.utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: b + "/manifest.json")) }
        let unreadable = try mihiraki(["compare", a, b])
        #expect(unreadable.status == 0 && unreadable.stderr.hasPrefix("mihiraki: note: a manifest.json Mihiraki cannot read"),
                "\(unreadable.stderr)")
    }
}
