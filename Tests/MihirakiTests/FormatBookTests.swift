import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs

@Suite("Books of WebP, GIF, AVIF and JPEG XL pages", .tags(.library), .timeLimit(.minutes(10)))
struct FormatBookTests {
    static let formats = Fixtures.testImages.appendingPathComponent("formats")

    /// Lossless files of one picture, each under a name that may lie about it.
    @Test("Lossless pages of every format render the same bytes as the PNG they were made from, whatever their names")
    func sameSpreads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try Fixtures.bytes(Self.formats.appendingPathComponent("sources/rgb.png"))
        let pages = [("lossless.webp", "p1.jpg"), ("lossless.avif", "p2.avif"), ("lossless.jxl", "p3.jxl"),
                     ("animated.webp", "p4.webp")]
        for (fixture, name) in pages {
            try folder.write("formats/" + name, try Fixtures.bytes(Self.formats.appendingPathComponent(fixture)))
            try folder.write("png/" + name.split(separator: ".").first! + ".png", source)
        }
        var options = LayoutOptions()
        options.size = .exact(width: 300, height: 200)
        let plans = try ["formats", "png"].map { try SpreadPlan(book: try Book.load(folder.path + "/" + $0), options: options) }
        // 64×48 pages are wider than tall: each is a spread of its own.
        #expect(plans[0].text == "[1W]\n[2W]\n[3W]\n[4W]\n" && plans[1].text == plans[0].text)
        let outcomes = try BookRenderer.render(plans, into: folder.path + "/out")
        #expect(outcomes.filter { !$0.succeeded }.isEmpty, "\(outcomes.flatMap(\.errors))")
        for file in ["spread-001.png", "spread-002.png", "spread-003.png", "spread-004.png"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/out/formats/" + file))
            let b = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/out/png/" + file))
            #expect(a == b, "\(file)")
        }
    }

    @Test("GIF, lossy WebP, AVIF and JPEG XL pages plan and render; a BMP page names its format")
    func mixedBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (index, fixture) in ["static.gif", "lossy-alpha.webp", "10bit444.avif", "mono.avif", "lossy.jxl",
                                 "offset.gif"].enumerated() {
            try folder.write("book/p\(index + 1)." + fixture.split(separator: ".").last!,
                             try Fixtures.bytes(Self.formats.appendingPathComponent(fixture)))
        }
        var options = LayoutOptions()
        options.size = .exact(width: 300, height: 200)
        let plan = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: options)
        #expect(plan.spreadCount == 6)
        let outcome = try BookRenderer.render([plan], into: folder.path + "/out")[0]
        #expect(outcome.succeeded)
        try folder.write("book/p7.bmp", Array("BM".utf8) + [UInt8](repeating: 0, count: 60))
        #expect { _ = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: options) } throws: {
            ($0 as? MihirakiError)?.description.hasSuffix("p7.bmp: BMP images are not supported (Mihiraki reads \(ImageFormat.readableNames))") == true
        }
    }

    /// libavif's strict mode refused files Pillow and libvips read, such as
    /// an AVIF without the pixi property the specification requires.
    @Test("An AVIF that only bends the specification (no pixi property) is read as Pillow reads it")
    func lenientAVIF() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let made = try runTool("/usr/bin/env", ["python3", "-c", """
            import sys
            from PIL import Image
            Image.new("RGB", (60, 90), (200, 100, 30)).save(sys.argv[1], quality=95)
            """, folder.path + "/strict.avif"])
        #expect(made.status == 0, "\(made.stderr)")
        var bytes = try Fixtures.bytes(URL(fileURLWithPath: folder.path + "/strict.avif"))
        // The pixi property's box type becomes one no reader knows: a free-standing, ignorable property.
        let pixi = Array("pixi".utf8)
        let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == pixi })
        bytes.replaceSubrange(at..<at + 4, with: Array("xxxx".utf8))
        try folder.write("book/p1.avif", bytes)
        let plan = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: LayoutOptions())
        let spread = try plan.renderSpread(at: 0)
        let rect = plan.entries[0].slots.first { $0.leaf != .blank }!.rect
        let center = (rect.y + rect.height / 2) * spread.width + rect.x + rect.width / 2
        let pixel = Array(spread.pixels[center * spread.channels..<center * spread.channels + 3])
        #expect(pixel.enumerated().allSatisfy { abs(Int($0.element) - [200, 100, 30][$0.offset]) <= 4 }, "\(pixel)")
    }

    @Test("--color-manage: auto converts a page with a wide-gamut profile, off keeps its stored values, and runs differ")
    func colorManage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try Fixtures.bytes(Self.formats.appendingPathComponent("icc.png")))
        var options = LayoutOptions()
        options.size = .exact(width: 300, height: 200)
        let managed = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: options).renderSpread(at: 0)
        options.colorManage = false
        let stored = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: options).renderSpread(at: 0)
        #expect(managed.width == stored.width && managed.pixels != stored.pixels)
        // A page in sRGB already is the same either way.
        let plain = folder.path + "/plain"
        try folder.write("plain/p1.png", try Fixtures.bytes(Self.formats.appendingPathComponent("lossless.webp")))
        let off = try SpreadPlan(book: try Book.load(plain), options: options).renderSpread(at: 0)
        options.colorManage = true
        let auto = try SpreadPlan(book: try Book.load(plain), options: options).renderSpread(at: 0)
        #expect(off == auto)
    }
}
