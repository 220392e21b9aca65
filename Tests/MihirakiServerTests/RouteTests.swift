import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiRaster
@testable import MihirakiServer

/// Routes, errors, ETags and headers, driven in-process through the
/// server's own responder: no socket, no process, milliseconds a request. What
/// needs a real process (signals, load, the browser, the wire's limits) is
/// in CLITests.
@Suite("mihiraki serve in-process: routes, caching, hostile requests", .tags(.server), .timeLimit(.minutes(10)))
struct RouteTests {
    /// The library served by the application `serve` would run, with `configure` applied to its options.
    static func withApp(_ configure: (inout ServerOptions) -> Void = { _ in },
                        prepare: (ServedLibrary) throws -> Void = { _ in },
                        _ body: @Sendable (ServedLibrary, InProcessClient) async throws -> Void) async throws {
        let library = try ServedLibrary()
        defer { library.remove() }
        try prepare(library)
        var options = ServerOptions(root: library.root)
        options.jobs = 2
        // No time limit but the timeout test's own: in-process, a render's answer waits for Swift's cooperative
        // threads, which the suites running beside it may hold for a long while on a busy machine.
        options.timeoutSeconds = 3600
        configure(&options)
        try await body(library, InProcessClient(responder: try SpreadServer.responder(options)))
    }

    static func get(_ client: InProcessClient, _ uri: String, headers: HTTPFields = [:],
                    method: HTTPRequest.Method = .get) async throws -> InProcessClient.Answer {
        try await client.execute(uri: uri, method: method, headers: headers)
    }

    /// `path` asked with `If-None-Match: etag` until the catalog's background
    /// rescan has noticed a change (polled, at most 10 s), then the answer.
    static func afterRescan(_ client: InProcessClient, _ path: String, etag: String) async throws -> InProcessClient.Answer {
        var answer = try await get(client, path, headers: [.ifNoneMatch: etag])
        let deadline = Date().addingTimeInterval(10)
        while answer.status == .notModified && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            answer = try await get(client, path, headers: [.ifNoneMatch: etag])
        }
        return answer
    }

    static func error(_ response: InProcessClient.Answer) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["error"] as? String
    }

    @Test("Health, the book list, a manifest equal to the plan's, spreads byte-identical to the library's in every format")
    func routes() async throws {
        try await Self.withApp { library, client in
            #expect(try await Self.get(client, "/healthz").status == .ok)
            let list = try await Self.get(client, "/api/books")
            #expect(list.headers[.contentType]?.hasPrefix("application/json") == true)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String: Any]
            let books = json?["books"] as? [[String: String]] ?? []
            #expect(books.map { $0["id"]! } == ["broken", "leaky", "manga.cbz", "Series A/vol1"])
            #expect(books.last?["url"] == "/api/books/Series%20A%2Fvol1")

            var options = LayoutOptions()
            try options.set([("size", "x300"), ("direction", "rtl"), ("background", "#102030")])
            let plan = try SpreadPlan(book: try Book.load(library.root + "/Series A/vol1"), options: options)
            let manifest = try await Self.get(client, "/api/books/Series%20A%2Fvol1/manifest?size=x300&direction=rtl&background=%23102030")
            #expect(manifest.status == .ok && String(buffer: manifest.body) == plan.manifest.json)
            for format in SpreadFormat.allCases {
                var encoded = options
                encoded.encoding.format = format
                let formatPlan = try plan.replanned(with: encoded)
                let answer = try await Self.get(client, "/api/books/Series%20A%2Fvol1/spreads/2.\(format.fileExtension)?size=x300&direction=rtl&background=%23102030")
                #expect(answer.status == .ok)
                #expect(Array(buffer: answer.body) == (try formatPlan.spreadFile(at: 1)), "\(format)")
                #expect(answer.headers[.contentType] == format.mimeType)
                #expect(answer.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(answer.headers[.cacheControl]?.contains("max-age") == true)
            }
            // An archive book with ComicInfo: right to left by itself.
            let rtl = try await Self.get(client, "/api/books/manga.cbz/manifest?size=x200")
            #expect(String(buffer: rtl.body).contains(#""direction": "rtl""#))
        }
    }

    @Test("split-wide and crop-borders in a query: the manifest and the spreads are the library's (SPEC §3b)")
    func splitAndCrop() async throws {
        try await Self.withApp(prepare: { library in
            var wide = PixelBuffer(width: 600, height: 400, channels: 1)
            for index in wide.pixels.indices { wide.pixels[index] = UInt8(truncatingIfNeeded: 180 + (index % 600) / 20) }
            try FileManager.default.createDirectory(atPath: library.root + "/wide", withIntermediateDirectories: true)
            try Data(try PNGEncoder.encode(wide)).write(to: URL(fileURLWithPath: library.root + "/wide/p2.png"))
            try Data(try Fixtures.solidPNG(width: 300, height: 400, [90])).write(to: URL(fileURLWithPath: library.root + "/wide/p1.png"))
        }) { library, client in
            var options = LayoutOptions()
            try options.set([("size", "x200"), ("split-wide", "auto"), ("crop-borders", "1"), ("crop-limit", "5")])
            let plan = try SpreadPlan(book: try Book.load(library.root + "/wide"), options: options)
            #expect(plan.text.contains("[2a|2b]"))
            let query = "?size=x200&split-wide=auto&crop-borders=1&crop-limit=5"
            let manifest = try await Self.get(client, "/api/books/wide/manifest" + query)
            #expect(manifest.status == .ok && String(buffer: manifest.body) == plan.manifest.json)
            let spread = try await Self.get(client, "/api/books/wide/spreads/2.png" + query)
            let expected = try plan.spreadFile(at: 1)
            #expect(spread.status == .ok && Array(buffer: spread.body) == expected)
            let bad = try await Self.get(client, "/api/books/wide/manifest?split-wide=sideways")
            #expect(bad.status == .badRequest && Self.error(bad)?.contains("split-wide") == true)
        }
    }

    @Test("EPUB and PDF books are listed with their extension in the id and served as the library renders them")
    func epubAndPDF() async throws {
        let fixtures = Fixtures.testImages.path
        try await Self.withApp(prepare: { library in
            try FileManager.default.copyItem(atPath: fixtures + "/epub/fixed-rtl.epub", toPath: library.root + "/fixed-rtl.epub")
            try FileManager.default.copyItem(atPath: fixtures + "/pdf/vector.pdf", toPath: library.root + "/vector.pdf")
            try FileManager.default.copyItem(atPath: fixtures + "/pdf/declared.pdf", toPath: library.root + "/declared.pdf")
        }) { library, client in
            let list = try await Self.get(client, "/api/books")
            let json = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String: Any]
            let ids = (json?["books"] as? [[String: String]] ?? []).map { $0["id"]! }
            #expect(Set(["fixed-rtl.epub", "vector.pdf", "declared.pdf"]).isSubset(of: Set(ids)), "\(ids)")
            for (id, spread) in [("fixed-rtl.epub", 2), ("vector.pdf", 1), ("declared.pdf", 1)] {
                var options = LayoutOptions()
                try options.set([("size", "x200")])
                let plan = try SpreadPlan(book: try Book.load(library.root + "/" + id), options: options)
                let answer = try await Self.get(client, "/api/books/\(id)/spreads/\(spread).png?size=x200")
                #expect(answer.status == .ok, "\(id)")
                #expect(Array(buffer: answer.body) == (try plan.spreadFile(at: spread - 1)), "\(id)")
            }
        }
    }

    @Test("ETag and If-None-Match: 304 without a body; HEAD as GET; a changed page gives a new ETag and new bytes")
    func entityTags() async throws {
        try await Self.withApp({ $0.refreshSeconds = 0 }) { library, client in
            let path = "/api/books/Series%20A%2Fvol1/spreads/2.webp?size=x200"
            let first = try await Self.get(client, path)
            let etag = try #require(first.headers[.eTag])
            #expect(first.status == .ok && etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(try await Self.get(client, path).headers[.eTag] == etag, "the same spread keeps its tag")
            let again = try await Self.get(client, path, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            #expect(try await Self.get(client, path, headers: [.ifNoneMatch: "\"other\""]).status == .ok)
            let head = try await Self.get(client, path, method: .head)
            #expect(head.status == .ok && head.headers[.eTag] == etag && head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(first.body.readableBytes))
            #expect(try await Self.get(client, path + "&quality=60").headers[.eTag] != etag, "other options, other tag")

            // Page 2 replaced (spread 2 is [2|3]): the catalog rescans in the
            // background; poll until the new tag is served.
            let page = library.root + "/Series A/vol1/page2.png"
            try FileManager.default.removeItem(atPath: page)
            try FileManager.default.copyItem(atPath: library.root + "/Series A/vol1/page5.png", toPath: page)
            let changed = try await Self.afterRescan(client, path, etag: etag)
            #expect(changed.status == .ok && changed.headers[.eTag] != etag && changed.body != first.body)
        }
    }

    @Test("Hostile and bad requests: the right status, a JSON error with no host path, and the server keeps serving",
          arguments: [
            ("/api/books/../../etc/passwd", 404),
            ("/api/books/..%2F..%2Fetc%2Fpasswd/manifest", 400),
            ("/api/books/%2E%2E%2F%2E%2E%2Fetc/manifest", 400),
            ("/api/books/%252E%252E%252Fetc/manifest", 400),
            ("/api/books/Series%2520A%252Fvol1/manifest", 400),
            ("/api/books/%2Fetc%2Fpasswd/manifest", 400),
            ("/api/books/Series%20A%2F%2Fvol1/manifest", 400),
            ("/api/books/vol1%00/manifest", 400),
            ("/api/books/..%5C..%5Cetc/manifest", 400),
            // Bytes C0 AE are a name like any other to Linux (never "."): no such book.
            ("/api/books/%C0%AE%C0%AE%2Fetc/manifest", 404),
            ("/api/books/bad%zzid/manifest", 400),
            ("/api/books/escape/manifest", 404),
            ("/api/books/nothing-here/manifest", 404),
            ("/api/books/Series%20A%2Fvol1/spreads/99.png", 404),
            ("/api/books/Series%20A%2Fvol1/spreads/0.png", 404),
            ("/api/books/Series%20A%2Fvol1/spreads/1.gif", 404),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?size=99999999x99999999", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?size=60000x60000", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?size=-5x3", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?size=x300&gap=1e300", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?size=x300&gap=nan", 400),
            ("/api/books/Series%20A%2Fvol1/manifest?size=x9223372036854775807", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.webp?quality=500", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?background=%23GGGGGG", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?format=jpeg", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?colour=red", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.png?max-pixels=10", 400),
            ("/api/books/Series%20A%2Fvol1/spreads/1.jpg?lossless=1", 400),
            ("/api/books/broken/spreads/2.png", 422),
            ("/no/such/route", 404),
          ])
    func hostile(target: String, status: Int) async throws {
        try await Self.withApp { library, client in
            let answer = try await Self.get(client, target)
            #expect(answer.status.code == status, "\(target): \(answer.status) \(String(buffer: answer.body))")
            let error = try #require(Self.error(answer), "\(target): \(String(buffer: answer.body))")
            #expect(!error.contains(library.folder.path) && !error.contains("/tmp"), "\(error)")
            #expect(answer.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            if status == 422 { #expect(error.hasPrefix("broken/p2.png:"), "\(error)") }
            #expect(try await Self.get(client, "/healthz").status == .ok)
        }
    }

    @Test("A bad value is answered with what the parameter takes")
    func badValueNamesTheValues() async throws {
        try await Self.withApp { _, client in
            let answer = try await Self.get(client, "/api/books/manga.cbz/manifest?direction=sideways")
            #expect(answer.status == .badRequest)
            #expect(Self.error(answer) == "bad value for direction: sideways (ltr, rtl or auto)")
        }
    }

    /// The server answered `--size must be between 1x1 and 65535x65535` to a
    /// query: a flag the client never wrote. Options are named as parameters.
    @Test("A query's options are named as parameters in every error, never as command-line flags",
          arguments: ["size=70000x1", "page-aspect=1e-300x1", "quality=101&format=webp", "lossless=1&format=jpeg", "gap=-1"])
    func errorsNameParameters(query: String) async throws {
        try await Self.withApp { _, client in
            let answer = try await Self.get(client, "/api/books/manga.cbz/manifest?" + query)
            let error = Self.error(answer) ?? ""
            let name = String(query.prefix { $0 != "=" })
            #expect(answer.status == .badRequest && error.contains(name) && !error.contains("--"), "\(query): \(error)")
        }
    }
}
