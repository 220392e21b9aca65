import Foundation
import MihirakiTestSupport
import Testing

/// What needs the real process and the wire: the bytes `render` writes, and
/// limits NIO enforces on the connection. Routes, ETags and the hostile
/// catalogue run in-process (MihirakiServerTests/RouteTests).
@Suite("mihiraki serve: identity with render, the wire", .serialized, .tags(.process), .timeLimit(.minutes(5)))
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

    @Test("A 100 kB URL is refused and the server goes on")
    func longURL() throws {
        try withServer { library, server in
            let answer = try httpGet(server, "/api/books/" + String(repeating: "a", count: 100_000) + "/manifest")
            #expect((400..<500).contains(answer.status) || answer.status == 0, "\(answer.status)")
            #expect(try httpGet(server, "/healthz").status == 200)
        }
    }
}
