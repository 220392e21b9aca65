import Foundation
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing

/// Debian's chromium, headless: the report is checked in a real browser.
func chromium(_ arguments: [String], profile: String) throws -> Run {
    try runTool("/usr/bin/chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                  "--user-data-dir=" + profile, "--virtual-time-budget=3000"] + arguments)
}

/// A gray picture with a dark block whose shade is `block`.
func blockPNG(width: Int = 60, height: Int = 40, block: UInt8) throws -> [UInt8] {
    var image = Fixtures.solid(width: width, height: height, [200, 200, 200])
    for y in 10..<20 { for x in 20..<40 { for c in 0..<3 { image.pixels[(y * width + x) * 3 + c] = block } } }
    return try PNGEncoder.encode(image)
}

@Suite("Command line: reports", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct ReportCLITests {
    static let oddName = #"we<ird> & "name".png"#

    /// expected/ and actual/ as a failing CI run has them: equal, different,
    /// resized, missing and extra files, and a name that needs escaping.
    func makePair() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for side in ["expected", "actual"] {
            try folder.write("\(side)/a.png", try blockPNG(block: 30))
            try folder.write("\(side)/pages/\(Self.oddName)", try blockPNG(block: 30))
        }
        try folder.write("expected/b.png", try blockPNG(block: 30))
        try folder.write("actual/b.png", try blockPNG(block: 140))
        try folder.write("expected/c.png", try blockPNG(block: 30))
        try folder.write("actual/c.png", try blockPNG(width: 64, block: 30))
        try folder.write("expected/d.png", try blockPNG(block: 30))
        try folder.write("actual/e.png", try blockPNG(block: 30))
        return folder
    }

    @Test("compare --report: failures first, every picture resolves, names escaped, the filter hides passing entries")
    func reportInBrowser() throws {
        let folder = try makePair()
        defer { folder.remove() }
        let report = folder.path + "/report", profile = folder.path + "/chromium"
        let run = try mihiraki(["compare", folder.path + "/expected", folder.path + "/actual", "--report", report])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("c.png: DIFF size 64×40, expected 60×40"))

        let page = "file://" + report + "/index.html"
        let dom = try chromium(["--dump-dom", page], profile: profile).stdout
        let statuses = dom.components(separatedBy: "data-status=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(statuses.count == 6)
        let firstPass = try #require(statuses.firstIndex(of: "ok"))
        #expect(statuses[..<firstPass].allSatisfy { $0 != "ok" } && statuses[firstPass...].allSatisfy { $0 == "ok" })
        #expect(dom.contains("we&lt;ird&gt; &amp; \"name\".png") || dom.contains("we&lt;ird&gt; &amp; &quot;name&quot;.png"))
        #expect(dom.contains("8 compared") == false && dom.contains("6 compared · 4 failed"))
        // Every picture the page shows is a file in the report folder.
        let sources = dom.components(separatedBy: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(sources.count >= 10)
        for source in sources {
            let path = report + "/" + (source.removingPercentEncoding ?? source).replacingOccurrences(of: "&amp;", with: "&")
            #expect(FileManager.default.fileExists(atPath: path), "\(source)")
        }
        // No entry starts hidden (only each entry's stacked view, until asked for).
        #expect(dom.components(separatedBy: "<section ").dropFirst().allSatisfy { !$0.prefix { $0 != ">" }.contains("hidden") })

        // "Show only failures", as the page's address can preset it: passing entries hidden, failures not.
        let filtered = try chromium(["--dump-dom", page + "#failures"], profile: profile).stdout
        let sections = filtered.components(separatedBy: "<section ").dropFirst()
        #expect(sections.count == 6)
        for section in sections {
            let tag = section.prefix { $0 != ">" }
            #expect(tag.contains("hidden") == tag.contains("entry pass"), "\(tag)")
        }

    }

    @Test("compare --junit: valid XML with one test case per file and a failure per difference, missing or extra file")
    func junit() throws {
        let folder = try makePair()
        defer { folder.remove() }
        let junit = folder.path + "/junit.xml"
        let run = try mihiraki(["compare", folder.path + "/expected", folder.path + "/actual", "--junit", junit])
        #expect(run.status == 1)
        let parsed = try runTool("/usr/bin/env", ["python3", "-c", """
            import sys, xml.etree.ElementTree as ET
            suite = ET.parse(sys.argv[1]).getroot().find('testsuite')
            cases = suite.findall('testcase')
            print(suite.get('tests'), suite.get('failures'), suite.get('errors'), len(cases),
                  len(suite.findall('testcase/failure')), sorted(c.get('classname') + '/' + c.get('name') for c in cases))
            """, junit])
        #expect(parsed.stdout.hasPrefix("6 4 0 6 4 "), "\(parsed.stdout) \(parsed.stderr)")
        #expect(parsed.stdout.contains("pages/" + Self.oddName.replacingOccurrences(of: "\"", with: "\\\"")) ||
                parsed.stdout.contains("pages/" + Self.oddName), "\(parsed.stdout)")
    }

    @Test("--ignore and --mask leave pixels out; a mask of the wrong size is exit 2 with one line")
    func ignoreAndMask() throws {
        let folder = try makePair()
        defer { folder.remove() }
        let b = [folder.path + "/expected/b.png", folder.path + "/actual/b.png"]
        #expect(try mihiraki(["compare"] + b).status == 1)
        #expect(try mihiraki(["compare"] + b + ["--ignore", "20,10,20,10"]).status == 0)
        #expect(try mihiraki(["compare"] + b + ["--ignore", "20,10,10,10"]).status == 1)
        var mask = Fixtures.solid(width: 60, height: 40, [0])
        for y in 8..<22 { for x in 18..<42 { mask.pixels[y * 60 + x] = 255 } }
        try folder.write("mask.png", try PNGEncoder.encode(mask))
        #expect(try mihiraki(["compare"] + b + ["--mask", folder.path + "/mask.png"]).status == 0)
        try folder.write("small.png", try PNGEncoder.encode(Fixtures.solid(width: 10, height: 10, [255])))
        let wrong = try mihiraki(["compare"] + b + ["--mask", folder.path + "/small.png"])
        #expect(wrong.status == 2 && wrong.stderr.contains("the mask is 10×10, the images 60×40"), "\(wrong.stderr)")
        let bad = try mihiraki(["compare"] + b + ["--ignore", "1,2,3"])
        #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1)
    }

    @Test("render --check --report --junit on the sample book: one entry per spread, the changed spread first")
    func renderCheckReport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/sample-book"
        try FileManager.default.copyItem(atPath: Fixtures.sampleBook.path, toPath: book)
        let size = ["--size", "480x360", "-q"]
        #expect(try mihiraki(["render", book, "-o", folder.path + "/golden"] + size).status == 0)
        // A correction lands on page 5: a patch of a different grey.
        var page = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: book + "/page5.png")))
        for y in 300..<420 { for x in 200..<420 { for c in 0..<page.channels { page.pixels[(y * page.width + x) * page.channels + c] = 90 } } }
        try Data(try PNGEncoder.encode(page)).write(to: URL(fileURLWithPath: book + "/page5.png"))
        let report = folder.path + "/report"
        let run = try mihiraki(["render", book, "--check", folder.path + "/golden", "--report", report,
                                "--junit", folder.path + "/junit.xml"] + size)
        #expect(run.status == 1 && run.stdout.contains("sample-book/spread-003.png: DIFF"))
        // The patch (220×120 at 200, 300 of the 640×996 page) in the page's own pixels, drawn at 360 high.
        #expect(run.stdout.contains("sample-book/page 5, spread-003.png right: changed, 3291 px in page [199, 298, 223, 123], canvas [312, 108, 80, 44]"),
                "\(run.stdout)")
        let dom = try chromium(["--dump-dom", "file://" + report + "/index.html"], profile: folder.path + "/chromium").stdout
        let names = dom.components(separatedBy: "<h2><a href=\"#e").dropFirst().map { entry in
            String(entry.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
        }
        #expect(names.count == 8 && names.first == "sample-book/spread-003.png", "\(names)")
        #expect(dom.contains("8 compared · 1 failed · 1 differ · 7 passed"))
        let junit = try String(contentsOfFile: folder.path + "/junit.xml", encoding: .utf8)
        // A case per page slot (the plan, 12 pages, 8 backgrounds); page 5 the one failure.
        #expect(junit.contains(#"tests="21" failures="1" errors="0""#), "\(junit)")
        #expect(junit.contains(#"<testcase classname="sample-book/spread-003" name="page-5">"#)
                && junit.contains(#"<failure message="sample-book/spread-003/page-5: DIFF page 5, spread-003.png right: changed"#), "\(junit)")

        // A screenshot, kept for people to look at: the VisualRegression article's picture is one of these.
        let shot = Fixtures.packageRoot.path + "/.build/report-screenshot.png"
        _ = try chromium(["--screenshot=" + shot, "--window-size=1200,1000", "file://" + report + "/index.html"],
                         profile: folder.path + "/chromium")
        let picture = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: shot)))
        #expect(picture.width == 1200 && picture.height == 1000)
    }
}
