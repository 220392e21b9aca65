import Foundation
import MihirakiTestSupport
import Testing

@Suite("mihiraki serve: routes, identity with render, caching, hostile requests", .serialized)
struct ServerCLITests {
    @Test("Routes: health, the book list, a manifest equal to plan --json, every format byte-identical to render")
    func routesAndIdentity() throws {
        try withServer { library, server in
            #expect(try httpGet(server, "/healthz").status == 200)
            let list = try httpGet(server, "/api/books")
            #expect(list.headers["content-type"]?.hasPrefix("application/json") == true)
            let books = (try JSONSerialization.jsonObject(with: list.body) as? [String: [[String: String]]])?["books"] ?? []
            #expect(books.map { $0["id"]! } == ["broken", "leaky", "manga.cbz", "Series A/vol1"], "\(list.text)")
            #expect(books.last?["url"] == "/api/books/Series%20A%2Fvol1")

            let book = library.root + "/Series A/vol1"
            let plan = try mihiraki(["plan", book, "--json", "--size", "x300", "--direction", "rtl"])
            let manifest = try httpGet(server, "/api/books/Series%20A%2Fvol1/manifest?size=x300&direction=rtl")
            #expect(manifest.status == 200 && manifest.text == plan.stdout)

            let out = library.folder.path + "/cli"
            for (format, ext) in [("png", "png"), ("jpeg", "jpg"), ("webp", "webp"), ("avif", "avif")] {
                let flags = ["--size", "x300", "--direction", "rtl", "--background", "#102030", "--format", format]
                #expect(try mihiraki(["render", book, "-o", out + "/" + format, "--quiet"] + flags).status == 0)
                for n in [1, 3] {
                    let answer = try httpGet(server, "/api/books/Series%20A%2Fvol1/spreads/\(n).\(ext)?size=x300&direction=rtl&background=%23102030")
                    let file = try Data(contentsOf: URL(fileURLWithPath: out + "/\(format)/vol1/spread-00\(n).\(ext)"))
                    #expect(answer.status == 200 && answer.body == file, "\(format) spread \(n)")
                    #expect(answer.headers["content-type"] == "image/" + format)
                    #expect(answer.headers["x-content-type-options"] == "nosniff")
                    #expect(answer.headers["cache-control"]?.contains("max-age") == true)
                }
            }
            // An archive book with ComicInfo: right to left by itself.
            let rtl = try httpGet(server, "/api/books/manga.cbz/manifest?size=x200")
            #expect(rtl.text.contains(#""direction": "rtl""#), "\(rtl.text)")
            #expect(server.stop() == 0)
        }
    }

    @Test("ETag and If-None-Match: 304 without a body; a changed page gives a new ETag and new bytes")
    func entityTags() throws {
        try withServer(["--refresh", "0"]) { library, server in
            let path = "/api/books/Series%20A%2Fvol1/spreads/2.webp?size=x200"
            let first = try httpGet(server, path)
            let etag = try #require(first.headers["etag"])
            #expect(first.status == 200 && etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(try httpGet(server, path).headers["etag"] == etag, "the same spread keeps its tag")
            let again = try httpGet(server, path, headers: ["If-None-Match: \(etag)"])
            #expect(again.status == 304 && again.body.isEmpty)
            #expect(try httpGet(server, path, headers: ["If-None-Match: \"other\""]).status == 200)
        let head = try runTool("/usr/bin/curl", ["-s", "-I", server.base + path])
        #expect(head.stdout.hasPrefix("HTTP/1.1 200") && head.stdout.contains(etag)
                && head.stdout.contains("Content-Length: \(first.body.count)"), "HEAD: \(head.stdout)")
            #expect(try httpGet(server, path + "&quality=60").headers["etag"] != etag, "other options, other tag")

            // Page 2 replaced (spread 2 is [2|3]): the tag changes and the new bytes are served.
            let page = library.root + "/Series A/vol1/page2.png"
            try FileManager.default.removeItem(atPath: page)
            try FileManager.default.copyItem(atPath: library.root + "/Series A/vol1/page5.png", toPath: page)
            Thread.sleep(forTimeInterval: 0.3)  // the catalog rescans in the background
            _ = try httpGet(server, "/api/books")
            Thread.sleep(forTimeInterval: 0.5)
            let changed = try httpGet(server, path, headers: ["If-None-Match: \(etag)"])
            #expect(changed.status == 200 && changed.headers["etag"] != etag && changed.body != first.body)
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
            ("/api/books/%C0%AE%C0%AE%2Fetc/manifest", 400),
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
            ("/api/books/Series%20A%2Fvol1/spreads/1.jpg?lossless=1", 400),
            ("/api/books/broken/spreads/2.png", 422),
            ("/no/such/route", 404),
          ])
    func hostile(target: String, status: Int) throws {
        try withServer { library, server in
            let answer = try httpGet(server, target)
            #expect(answer.status == status, "\(target): \(answer.status) \(answer.text)")
            let error = try #require(answer.error, "\(target): \(answer.text)")
            #expect(!error.contains(library.folder.path) && !error.contains("/tmp"), "\(error)")
            #expect(answer.headers["x-content-type-options"] == "nosniff")
            if status == 422 { #expect(error.hasPrefix("broken/p2.png:"), "\(error)") }
            #expect(try httpGet(server, "/healthz").status == 200)
        }
    }

    @Test("Links out of ROOT: a linked folder is not a book, a linked page is not read")
    func symlinks() throws {
        try withServer { library, server in
            let manifest = try httpGet(server, "/api/books/leaky/manifest?layout=single")
            #expect(manifest.status == 200)
            #expect(manifest.text.contains("p1.png") && !manifest.text.contains("p2.png"), "\(manifest.text)")
            #expect(!(try httpGet(server, "/api/books").text.contains("escape")))
        }
    }

    @Test("A 100 kB URL is refused and the server goes on")
    func longURL() throws {
        try withServer { library, server in
            let answer = try httpGet(server, "/api/books/" + String(repeating: "a", count: 100_000) + "/manifest")
            #expect((400..<500).contains(answer.status) || answer.status == 0, "\(answer.status)")
            #expect(try httpGet(server, "/healthz").status == 200)
        }
    }
}
