import Foundation
import MihirakiTestSupport
import MihirakiCodecs
import MihirakiRaster
import Testing

@Suite("Command line: visual regression", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct RegressionCLITests {
    @Test("compare: files and folders, exit 0 / 1 / 2, --json, --diff")
    func compare() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = Fixtures.solid(width: 30, height: 20, [10, 20, 30])
        var changed = base
        changed.pixels[3 * 45] = 250
        let a = try folder.write("e/a.png", try PNGEncoder.encode(base))
        let b = try folder.write("a/a.png", try PNGEncoder.encode(changed))
        let same = try mihiraki(["compare", a, a])
        #expect(same.status == 0 && same.stdout == "\(a): ok\n")
        let diff = try mihiraki(["compare", a, b, "--diff", folder.path + "/d.png"])
        #expect(diff.status == 1 && diff.stdout == "\(b): DIFF 1 px (0.17 %)\n")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/d.png"))
        let tolerated = try mihiraki(["compare", a, b, "--max-diff-pixels", "1"])
        #expect(tolerated.status == 0)
        let folders = try mihiraki(["compare", folder.path + "/e", folder.path + "/a", "--json"])
        #expect(folders.status == 1 && folders.stdout.contains("\"status\": \"diff\""))
        try folder.write("a/broken.png", Array("nope".utf8))
        try folder.write("e/broken.png", try PNGEncoder.encode(base))
        let broken = try mihiraki(["compare", folder.path + "/e", folder.path + "/a"])
        #expect(broken.status == 2 && broken.stderr.contains("broken.png: not an image Mihiraki reads (\(ImageFormat.readableNames))"))
        let mixed = try mihiraki(["compare", a, folder.path + "/a"])
        #expect(mixed.status == 2)
        // A named pipe given as an image was opened and waited on for a writer, for ever.
        let pipe = folder.path + "/pipe.png"
        #expect(mkfifo(pipe, 0o644) == 0)
        let piped = try mihiraki(["compare", a, pipe])
        #expect(piped.status == 2 && piped.stderr == "mihiraki: \(pipe): is a named pipe, not a file\n")
    }

    @Test("render --check: a broken page is named with its spread and a diff picture; a changed plan in words, before any pixels")
    func goldenCheck() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/book"
        try FileManager.default.copyItem(atPath: Fixtures.sampleBook.path, toPath: book)
        let golden = folder.path + "/golden"
        let update = try mihiraki(["render", book, "--check", golden, "--update", "--size", "x300", "--quiet"])
        #expect(update.status == 0)
        let clean = try mihiraki(["render", book, "--check", golden, "--size", "x300"])
        #expect(clean.status == 0 && clean.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(": ok") })
        // Break page 4: paint a black block over its middle.
        var page = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: book + "/page4.jpg")))
        page.fill(x: 200, y: 300, width: 200, height: 200, color: Color(gray: 0))
        try Data(try JPEGEncoder.encode(page, quality: 90)).write(to: URL(fileURLWithPath: book + "/page4.jpg"))
        let junit = folder.path + "/junit.xml"
        let broken = try mihiraki(["render", book, "--check", golden, "--size", "x300", "--diff", folder.path + "/diffs",
                                   "--junit", junit])
        #expect(broken.status == 1)
        let lines = broken.stdout.split(separator: "\n").map(String.init)
        // The spread's line, then the page that changed on it (SPEC §5b).
        #expect(lines.filter { !$0.hasSuffix(": ok") }.count == 2, "\(broken.stdout)")
        #expect(lines.contains { $0.hasPrefix("book/spread-003.png: DIFF ") })
        #expect(lines.contains { $0.hasPrefix("book/page 4, spread-003.png left: changed, ") }, "\(broken.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/diffs/book/spread-003.png"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testcase classname="book/spread-003" name="page-4">"#) && xml.contains(#"failures="1""#), "\(xml)")
        // A changed plan is reported in words, page by page, before any pixels.
        let plan = try mihiraki(["render", book, "--check", golden, "--size", "x300", "--cover", "paired"])
        #expect(plan.status == 1 && plan.stdout.hasPrefix("book/spreads 8 → 7\nbook/pages 1–6: one slot earlier\n"), "\(plan.stdout)")
    }
}
