import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiRaster

/// A gray 40×30 picture with a 10×8 block at (20, 12) painted `block`.
func blocked(_ block: UInt8) -> PixelBuffer {
    var image = Fixtures.solid(width: 40, height: 30, [200, 200, 200])
    for y in 12..<20 { for x in 20..<30 { for c in 0..<3 { image.pixels[(y * 40 + x) * 3 + c] = block } } }
    return image
}

func compareInMemory(_ a: PixelBuffer, _ b: PixelBuffer, _ options: ImageComparator.Options,
                     diffPath: String? = nil) -> FileComparison {
    ImageComparator.compare(expected: a, actual: b, name: "pair", options: options, diffPath: diffPath,
                       sources: ImageComparator.Sources(key: "pair.png"))
}

@Suite("Ignore regions, masks and reports", .tags(.library), .timeLimit(.minutes(10)))
struct IgnoreAndReportTests {
    @Test("An ignore region covering the change makes the pair equal and leaves its pixels out of the total")
    func ignoreRegion() throws {
        var options = ImageComparator.Options()
        #expect(compareInMemory(blocked(200), blocked(20), options).differingPixels == 80)
        options.ignore = [(x: 18, y: 10, width: 14, height: 12)]
        let covered = compareInMemory(blocked(200), blocked(20), options)
        #expect(covered.status == .ok && covered.differingPixels == 0)
        #expect(covered.totalPixels == 40 * 30 - 14 * 12)
        // Half covered: only the uncovered half counts.
        options.ignore = [(x: 20, y: 12, width: 5, height: 8)]
        #expect(compareInMemory(blocked(200), blocked(20), options).differingPixels == 40)
        // A region reaching past the image is clipped, not a crash.
        options.ignore = [(x: 35, y: 25, width: 100, height: 100)]
        #expect(compareInMemory(blocked(200), blocked(20), options).totalPixels == 40 * 30 - 5 * 5)
    }

    @Test("A mask's white pixels are ignored, black and transparent ones count; a mask of another size is an error")
    func mask() throws {
        var options = ImageComparator.Options()
        var mask = Fixtures.solid(width: 40, height: 30, [0, 0, 0, 255])
        for y in 12..<20 { for x in 20..<30 { mask.pixels[(y * 40 + x) * 4] = 255 } }
        options.mask = mask
        #expect(compareInMemory(blocked(200), blocked(20), options).status == .ok)
        options.mask = Fixtures.solid(width: 40, height: 30, [255, 255, 255, 0])  // white but transparent
        #expect(compareInMemory(blocked(200), blocked(20), options).differingPixels == 80)
        options.mask = Fixtures.solid(width: 41, height: 30, [255])
        let wrong = compareInMemory(blocked(200), blocked(20), options)
        #expect(wrong.status == .error && wrong.detail == "the mask is 41×30, the images 40×30")
    }

    @Test("Ignored pixels are tinted blue in the diff picture, differing ones red")
    func diffPicture() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var options = ImageComparator.Options()
        options.ignore = [(x: 0, y: 0, width: 5, height: 5)]
        let path = folder.path + "/diff.png"
        _ = compareInMemory(blocked(200), blocked(20), options, diffPath: path)
        let picture = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: path)))
        let ignored = picture.rgba(x: 2, y: 2), differing = picture.rgba(x: 25, y: 15), same = picture.rgba(x: 10, y: 25)
        #expect(ignored.blue > ignored.red + 40 && ignored.blue > ignored.green)
        #expect(differing == Color(red: 255, green: 0, blue: 0))
        #expect(same.red == same.green && same.green == same.blue)
    }

    @Test("JUnit XML: one test case per file, failures for differences and missing or extra files, names escaped")
    func junit() throws {
        let results = [
            FileComparison(name: "vol1/spread-001.png", status: .ok, totalPixels: 100),
            FileComparison(name: "vol1/spread-002.png", status: .diff, differingPixels: 5, totalPixels: 100),
            FileComparison(name: "a<b>&\"c\".png", status: .missing),
            FileComparison(name: "vol2/x.png", status: .extra),
            FileComparison(name: "vol2/y.png", status: .error, detail: "vol2/y.png: not an image Mihiraki reads (\(ImageFormat.readableNames))"),
        ]
        let xml = ImageComparator.junit(results, suite: "check")
        #expect(xml.contains(#"<testsuites name="check" tests="5" failures="3" errors="1">"#))
        #expect(xml.contains(#"<testcase classname="vol1" name="spread-001.png"/>"#))
        #expect(xml.contains(#"<testcase classname="check" name="a&lt;b&gt;&amp;&quot;c&quot;.png">"#))
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 3)
        #expect(xml.components(separatedBy: "<error ").count - 1 == 1)
        #expect(xml.contains("5 of 100 pixels differ (5.00 %)"))
    }

    @Test("The report page lists failures first, escapes names, and links pictures that exist in its folder")
    func reportPage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("expected/a.png", try PNGEncoder.encode(blocked(200)))
        try folder.write("actual/a.png", try PNGEncoder.encode(blocked(200)))
        try folder.write("expected/<b&c>.png", try PNGEncoder.encode(blocked(200)))
        try folder.write("actual/<b&c>.png", try PNGEncoder.encode(blocked(20)))
        // JPEG pages and goldens are compared too; a JPEG against a PNG of other pixels differs.
        let jpeg = try JPEGEncoder.encode(blocked(200), quality: 95)
        try folder.write("expected/j.jpg", jpeg)
        try folder.write("actual/j.jpg", try PNGEncoder.encode(blocked(20)))
        var options = ImageComparator.Options()
        options.reportFolder = folder.path + "/report"
        let results = try ImageComparator.compareFolders(expected: folder.path + "/expected", actual: folder.path + "/actual",
                                                    options: options)
        try ImageComparator.writeReport(results, to: folder.path + "/report", title: "t")
        let html = try String(contentsOfFile: folder.path + "/report/index.html", encoding: .utf8)
        #expect(html.contains("&lt;b&amp;c&gt;.png") && !html.contains("<b&c>"))
        let failing = try #require(html.range(of: "data-status=\"diff\"")), passing = try #require(html.range(of: "data-status=\"ok\""))
        #expect(failing.lowerBound < passing.lowerBound)
        // Every picture the page shows is a file in the report folder.
        let sources = html.components(separatedBy: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(Set(results.map(\.name)) == ["<b&c>.png", "a.png", "j.jpg"])
        #expect(results.first { $0.name == "j.jpg" }?.status == .diff)
        // Two thumbnails for the equal pair (one file), three plus the two full-size layers for each differing one.
        #expect(sources.count == 2 + 5 + 5)
        for source in sources {
            let path = folder.path + "/report/" + (source.removingPercentEncoding ?? source)
            #expect(FileManager.default.fileExists(atPath: path), "\(source)")
        }
        // The matching pair shows one file for both sides, linked, not copied.
        #expect(results.first { $0.name == "a.png" }?.pictures == FileComparison.Pictures(expected: "expected/a.png",
                                                                                           actual: "expected/a.png"))
    }
}
