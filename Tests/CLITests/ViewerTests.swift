import Foundation
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing

@Suite("mihiraki serve: the viewer in a real browser", .serialized, .tags(.process, .browser), .timeLimit(.minutes(10)))
struct ViewerTests {
    @Test("The page is locked down: a strict Content-Security-Policy, its script and style from the server only")
    func headers() throws {
        try withServer { library, server in
            let page = try httpGet(server, "/")
            let policy = try #require(page.headers["content-security-policy"])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"))
            #expect(page.headers["x-content-type-options"] == "nosniff")
            #expect(page.text.contains(#"<script src="/viewer.js""#) && !page.text.contains("http"))
            #expect(try httpGet(server, "/viewer.js").headers["content-type"]?.hasPrefix("text/javascript") == true)
            #expect(try httpGet(server, "/viewer.css").status == 200)
        }
    }

    @Test("Chromium opens the position in the URL; the forward arrow follows the reading direction",
          arguments: [("manga.cbz", "rtl", "left", "right"), ("Series%20A%2Fvol1", "ltr", "right", "left")])
    func directionAndPosition(book: String, direction: String, forward: String, back: String) throws {
        try withServer { library, server in
            let profile = library.folder.path + "/chromium"
            let dom = try chromium(["--window-size=1000,700", "--dump-dom", server.base + "/#book=\(book)&spread=2"],
                                   profile: profile).stdout
            #expect(dom.contains(#"<body data-layout="spread" data-direction="\#(direction)">"#), "\(dom)")
            #expect(dom.contains(#"data-spread="2""#) && dom.contains("/spreads/2.webp?size="), "\(dom)")
            #expect(dom.range(of: #"id="position">2 / \d+<"#, options: .regularExpression) != nil, "\(dom)")
            #expect(dom.contains(#"id="\#(forward)" type="button" aria-label="\#(forward.capitalized)" title="Next""#), "\(dom)")
            #expect(dom.contains(#"id="\#(back)" type="button" aria-label="\#(back.capitalized)" title="Previous""#), "\(dom)")

            // At the first spread, going back is impossible: the back arrow is off, forward is on.
            let first = try chromium(["--window-size=1000,700", "--dump-dom", server.base + "/#book=\(book)&spread=1"],
                                     profile: profile).stdout
            #expect(first.range(of: #"id="\#(back)"[^>]*disabled"#, options: .regularExpression) != nil, "\(first)")
            #expect(first.range(of: #"id="\#(forward)"[^>]*disabled"#, options: .regularExpression) == nil, "\(first)")
        }
    }

    @Test("Automatic pairing is offered: pairing=auto in the link ticks the box and asks the server for auto-paired spreads")
    func automaticPairing() throws {
        try withServer { library, server in
            let profile = library.folder.path + "/chromium"
            let auto = try chromium(["--window-size=1000,700", "--dump-dom",
                                     server.base + "/#book=Series%20A%2Fvol1&spread=2&pairing=auto"], profile: profile).stdout
            #expect(auto.range(of: #"id="pairing" type="checkbox"[^>]*checked"#, options: .regularExpression) != nil, "\(auto)")
            #expect(auto.range(of: #"/spreads/2\.webp\?size=[^"]*&amp;pairing=auto"#, options: .regularExpression) != nil, "\(auto)")
            let plain = try chromium(["--window-size=1000,700", "--dump-dom",
                                      server.base + "/#book=Series%20A%2Fvol1&spread=2"], profile: profile).stdout
            #expect(plain.contains("/spreads/2.webp?size=") && !plain.contains("pairing=auto"), "\(plain)")
            #expect(plain.contains(#"id="pairing" type="checkbox""#)
                    && plain.range(of: #"id="pairing" type="checkbox"[^>]*checked"#, options: .regularExpression) == nil, "\(plain)")
        }
    }

    @Test("Splitting wide pages and cropping borders are offered: split-wide=auto and crop-borders=1 in the link tick their boxes and reach the server")
    func splitAndCrop() throws {
        try withServer { library, server in
            let profile = library.folder.path + "/chromium"
            let both = try chromium(["--window-size=700,1000", "--dump-dom",
                                     server.base + "/#book=Series%20A%2Fvol1&page=2&split-wide=auto&crop-borders=1"],
                                    profile: profile).stdout
            for box in ["split", "crop"] {
                #expect(both.range(of: #"id="\#(box)" type="checkbox"[^>]*checked"#, options: .regularExpression) != nil, "\(both)")
            }
            #expect(both.range(of: #"/spreads/\d+\.webp\?size=[^"]*&amp;split-wide=auto&amp;crop-borders=1&amp;layout=single"#,
                               options: .regularExpression) != nil, "\(both)")
            #expect(both.range(of: #"id="pairing" type="checkbox"[^>]*checked"#, options: .regularExpression) == nil)
            let plain = try chromium(["--window-size=700,1000", "--dump-dom", server.base + "/#book=Series%20A%2Fvol1&page=2"],
                                     profile: profile).stdout
            #expect(plain.contains("/spreads/") && !plain.contains("split-wide") && !plain.contains("crop-borders"), "\(plain)")
        }
    }

    /// `serve TestImages` opened on a test EPUB, the first book listed: the
    /// server's --open names the book a bare address shows.
    @Test("serve --open BOOK: a bare address opens that book, a link to another still opens its own; an unknown book is exit 2")
    func openBook() throws {
        try withServer(["--open", "manga.cbz"]) { library, server in
            let profile = library.folder.path + "/chromium"
            let bare = try chromium(["--window-size=1000,700", "--dump-dom", server.base + "/"], profile: profile).stdout
            #expect(bare.contains("/api/books/manga.cbz/spreads/1."), "\(bare)")
            let other = try chromium(["--window-size=1000,700", "--dump-dom", server.base + "/#book=Series%20A%2Fvol1"],
                                     profile: profile).stdout
            #expect(other.contains("/spreads/1.") && !other.contains("/api/books/manga.cbz/"), "\(other)")
        }
        try withServer { library, server in
            let bare = try chromium(["--window-size=1000,700", "--dump-dom", server.base + "/"],
                                    profile: library.folder.path + "/chromium").stdout
            #expect(!bare.contains("/api/books/manga.cbz/spreads/"), "the first listed book, not manga.cbz: \(bare)")
        }
        let library = try ServedLibrary()
        defer { library.remove() }
        let refused = try mihiraki(["serve", library.root, "--port", "0", "--open", "nosuch"])
        #expect(refused.status == 2 && refused.stderr.contains("--open: there is no book 'nosuch' under"), "\(refused.stderr)")
    }

    @Test("A link to a book that is not there says so, opens nothing, and leaves both arrows off")
    func missingBook() throws {
        try withServer { library, server in
            let dom = try chromium(["--window-size=1000,700", "--dump-dom", server.base + "/#book=nosuch"],
                                   profile: library.folder.path + "/chromium").stdout
            #expect(dom.contains("There is no book &quot;nosuch&quot; here") || dom.contains(#"There is no book "nosuch" here"#), "\(dom)")
            #expect(!dom.contains("/spreads/"), "no book was opened: \(dom)")
            #expect(dom.range(of: #"id="left"[^>]*disabled"#, options: .regularExpression) != nil, "\(dom)")
            #expect(dom.range(of: #"id="right"[^>]*disabled"#, options: .regularExpression) != nil, "\(dom)")
        }
    }

    @Test("A spread the server cannot make shows the server's message, not a broken image")
    func failedSpread() throws {
        try withServer { library, server in
            // broken/: page 1 is fine, page 2 is damaged; spread 2 holds page 2.
            let dom = try chromium(["--window-size=1000,700", "--dump-dom",
                                    server.base + "/#book=broken&spread=2"],
                                   profile: library.folder.path + "/chromium").stdout
            #expect(dom.contains("Spread 2: broken/p2.png:"), "\(dom)")
            #expect(dom.range(of: #"<img id="spread"[^>]*hidden"#, options: .regularExpression) != nil, "\(dom)")
        }
    }

    @Test("A screenshot shows the spread, sized to the window")
    func screenshot() throws {
        try withServer { library, server in
            let shot = Fixtures.packageRoot.path + "/.build/viewer-screenshot.png"
            _ = try chromium(["--window-size=1200,800", "--screenshot=" + shot, server.base + "/#book=Series%20A%2Fvol1&spread=4"],
                             profile: library.folder.path + "/chromium")
            let picture = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: shot))).straightRGBA
            #expect(picture.width == 1200 && picture.height == 800)
            // The spread [6|x] has a white blank page: a wide bright area right of centre, on the dark page.
            func bright(_ x: Int, _ y: Int) -> Bool { picture.pixels[(y * 1200 + x) * 4] > 240 }
            let samples = stride(from: 650, to: 1000, by: 25).flatMap { x in stride(from: 200, to: 600, by: 50).map { (x, $0) } }
            #expect(samples.allSatisfy { bright($0.0, $0.1) }, "the blank page is drawn")
            #expect(!bright(10, 400), "the page around it is dark")
        }
    }

    /// What the viewer shows after each step, as Tests/browser/drive.py reports it.
    struct Shown: Decodable {
        var hash: String
        var layout: String?
        var page: String?
        var spread: String?
        var src: String?
        var width: Int
        var height: Int
    }

    /// Runs `steps` in headless Chromium through the DevTools protocol and
    /// returns the states they record.
    static func drive(_ steps: [[String: Any]], profile: String) throws -> [Shown] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let run = try runTool("/usr/bin/python3", [Fixtures.packageRoot.path + "/Tests/browser/drive.py", profile, json])
        try #require(run.status == 0, "\(run.stderr)")
        return try JSONDecoder().decode([Shown].self, from: Data(run.stdout.utf8))
    }

    /// The longest run of pixels that are not the viewer's background
    /// (#202020) along a row or a column of a screenshot, between `from` and `to`.
    static func lit(_ picture: PixelBuffer, row: Int? = nil, column: Int? = nil, from: Int, to: Int) -> Int {
        var longest = 0, run = 0
        for i in from..<to {
            let (x, y) = row != nil ? (i, row!) : (column!, i)
            let at = (y * picture.width + x) * 4
            let background = picture.pixels[at] == 32 && picture.pixels[at + 1] == 32 && picture.pixels[at + 2] == 32
            run = background ? 0 : run + 1
            longest = max(longest, run)
        }
        return longest
    }

    @Test("Like a tablet reader: spreads on a landscape window, single pages on a portrait one, the page kept when it turns")
    func orientation() throws {
        try withServer { library, server in
            let landscape = Fixtures.packageRoot.path + "/.build/viewer-1400x900.png"
            let portrait = Fixtures.packageRoot.path + "/.build/viewer-900x1400.png"
            let shown = try Self.drive([
                ["window": [1400, 900]], ["open": server.base + "/#book=Series%20A%2Fvol1&page=5"], ["settle": true],
                ["state": true], ["screenshot": landscape],
                ["window": [900, 1400]], ["settle": true], ["state": true], ["screenshot": portrait],
                ["window": [1400, 900]], ["settle": true], ["state": true],
            ], profile: library.folder.path + "/chromium")
            try #require(shown.count == 3)
            // Landscape: the spread [4|5], wider than tall.
            #expect(shown[0].layout == "spread" && shown[0].page == "5" && shown[0].spread == "3", "\(shown[0])")
            #expect(shown[0].src?.contains("layout=single") == false && shown[0].width > shown[0].height, "\(shown[0])")
            // Portrait: page 5 alone, taller than wide; the link still names page 5.
            #expect(shown[1].layout == "single" && shown[1].page == "5" && shown[1].spread == "5", "\(shown[1])")
            #expect(shown[1].src?.contains("/spreads/5.webp?") == true && shown[1].src?.contains("&layout=single") == true)
            #expect(shown[1].height > shown[1].width && shown[1].hash == "#book=Series+A%2Fvol1&page=5", "\(shown[1])")
            // Back to landscape: the same spread as before.
            #expect(shown[2].layout == "spread" && shown[2].page == "5" && shown[2].spread == "3", "\(shown[2])")
            // The screenshots: a spread fills the landscape window's width, a single page the portrait one's height.
            let wide = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: landscape))).straightRGBA
            let tall = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: portrait))).straightRGBA
            #expect(wide.width == 1400 && wide.height == 900 && tall.width == 900 && tall.height == 1400)
            #expect(Self.lit(wide, row: 450, from: 60, to: 1340) >= 1000, "two pages side by side")
            #expect(Self.lit(tall, column: 450, from: 50, to: 1400) >= 1200, "one page, the window's height")
            #expect(Self.lit(tall, row: 700, from: 60, to: 840) >= 700, "one page, most of the window's width")
        }
    }

    @Test("Swipes follow the reading direction: dragging the page leftwards shows the page on the right",
          arguments: [("Series%20A%2Fvol1", 5, "6", "4"), ("manga.cbz", 3, "2", "4")])
    func swipes(book: String, start: Int, afterLeftSwipe: String, afterTwoRightSwipes: String) throws {
        try withServer { library, server in
            // A left-to-right book's next page lies to the right, a right-to-left book's to the left.
            let shown = try Self.drive([
                ["window": [900, 1400]], ["open": server.base + "/#book=\(book)&page=\(start)"], ["settle": true],
                ["swipe": "left"], ["settle": true], ["state": true],
                ["swipe": "right"], ["settle": true], ["swipe": "right"], ["settle": true], ["state": true],
            ], profile: library.folder.path + "/chromium")
            try #require(shown.count == 2)
            #expect(shown[0].layout == "single" && shown[0].page == afterLeftSwipe, "\(shown[0])")
            #expect(shown[0].hash.hasSuffix("page=" + afterLeftSwipe), "\(shown[0])")
            #expect(shown[1].page == afterTwoRightSwipes && shown[1].hash.hasSuffix("page=" + afterTwoRightSwipes), "\(shown[1])")
        }
    }
}
