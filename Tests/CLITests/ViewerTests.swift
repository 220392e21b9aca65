import Foundation
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing

@Suite("mihiraki serve: the viewer in a real browser", .serialized, .tags(.process, .browser), .timeLimit(.minutes(5)))
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
            #expect(dom.contains(#"<body data-direction="\#(direction)">"#), "\(dom)")
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
}
