import Foundation
import HTTPTypes
import Hummingbird
import Mihiraki
import MihirakiTestSupport
import Synchronization
import Testing
@testable import MihirakiRequests
@testable import MihirakiServer

/// SPEC §7b in-process: methods, the paged catalog, `/metrics` and the access log.
@Suite("mihiraki serve in production: methods, paging, metrics, access log", .tags(.server), .timeLimit(.minutes(10)))
struct ProductionTests {
    static func json(_ answer: InProcessClient.Answer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: answer.body)) as? [String: Any]) ?? [:]
    }

    @Test("Any method but GET and HEAD is 405 with Allow: GET, HEAD and a JSON error, on every route")
    func methods() async throws {
        try await RouteTests.withApp { _, client in
            for method: HTTPRequest.Method in [.post, .put, .delete, .patch, .options, .init("PROPFIND")!] {
                for path in ["/", "/api/books", "/api/books/manga.cbz/spreads/1.png", "/nowhere"] {
                    let answer = try await RouteTests.get(client, path, method: method)
                    #expect(answer.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(answer.headers[.allow] == "GET, HEAD")
                    #expect((Self.json(answer)["error"] as? String)?.contains("GET and HEAD") == true)
                }
            }
            #expect(try await RouteTests.get(client, "/healthz", method: .head).status == .ok)
        }
    }

    @Test("--max-size bounds the canvas a request may ask for: larger is 400 naming the limit; the default is 4096x4096")
    func maxSize() async throws {
        try await RouteTests.withApp({ $0.maxSize = (1000, 800) }) { _, client in
            #expect(try await RouteTests.get(client, "/api/books/manga.cbz/spreads/1.png?size=1000x800").status == .ok)
            for size in ["1001x800", "1000x801", "x801"] {
                let answer = try await RouteTests.get(client, "/api/books/manga.cbz/spreads/1.png?size=" + size)
                #expect(answer.status == .badRequest, "\(size)")
                #expect((Self.json(answer)["error"] as? String)?.contains("--max-size 1000x800") == true)
                #expect(try await RouteTests.get(client, "/api/books/manga.cbz/manifest?size=" + size).status == .badRequest)
            }
        }
        #expect(ServerOptions(root: "/").maxSize == (4096, 4096))
    }

    @Test("The book list is paged: offset and limit, the total with every page, bad values 400")
    func paging() async throws {
        try await RouteTests.withApp { _, client in
            let all = Self.json(try await RouteTests.get(client, "/api/books"))
            let ids = (all["books"] as? [[String: String]] ?? []).map { $0["id"]! }
            #expect(ids.count == 4 && all["total"] as? Int == 4 && all["limit"] as? Int == 1000 && all["offset"] as? Int == 0)
            let page = Self.json(try await RouteTests.get(client, "/api/books?offset=1&limit=2"))
            #expect((page["books"] as? [[String: String]] ?? []).map { $0["id"]! } == Array(ids[1...2]))
            #expect(page["total"] as? Int == 4)
            let past = Self.json(try await RouteTests.get(client, "/api/books?offset=10"))
            #expect((past["books"] as? [Any])?.isEmpty == true && past["total"] as? Int == 4)
            for bad in ["limit=0", "limit=100001", "offset=-1", "offset=x", "sort=id"] {
                let answer = try await RouteTests.get(client, "/api/books?" + bad)
                #expect(answer.status == .badRequest && Self.json(answer)["error"] != nil, "\(bad)")
            }
        }
    }

    @Test("The book list names each book's kind: folder, or the book file's kind by its name (epub, pdf, zip)")
    func kinds() async throws {
        try await RouteTests.withApp(prepare: { library in
            for (source, name) in [("epub/novel.epub", "novel.epub"), ("pdf/img2pdf.pdf", "scan.pdf")] {
                try FileManager.default.copyItem(atPath: Fixtures.testImages.path + "/" + source, toPath: library.root + "/" + name)
            }
        }) { _, client in
            let books = Self.json(try await RouteTests.get(client, "/api/books"))["books"] as? [[String: String]] ?? []
            let kinds = Dictionary(uniqueKeysWithValues: books.map { ($0["id"]!, $0["kind"]!) })
            #expect(kinds["novel.epub"] == "epub" && kinds["scan.pdf"] == "pdf" && kinds["manga.cbz"] == "zip", "\(kinds)")
            #expect(kinds["Series A/vol1"] == "folder" && kinds["broken"] == "folder", "\(kinds)")
        }
    }

    @Test("/metrics: requests by route and status, the duration histogram, cache hits and misses, books, in Prometheus text")
    func metrics() async throws {
        try await RouteTests.withApp { _, client in
            for _ in 0..<3 { _ = try await RouteTests.get(client, "/api/books/manga.cbz/spreads/1.png?size=x100") }
            _ = try await RouteTests.get(client, "/api/books/nothing/manifest")
            _ = try await RouteTests.get(client, "/api/books", method: .post)
            let answer = try await RouteTests.get(client, "/metrics")
            #expect(answer.status == .ok && answer.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: answer.body)
            for line in [#"mihiraki_requests_total{route="/api/books/:id/spreads/:file",status="200"} 3"#,
                         #"mihiraki_requests_total{route="/api/books/:id/manifest",status="404"} 1"#,
                         #"mihiraki_requests_total{route="/api/books",status="405"} 1"#,
                         "mihiraki_cache_hits_total 2", "mihiraki_cache_misses_total 1",
                         #"mihiraki_request_duration_seconds_bucket{le="+Inf"} 5"#, "mihiraki_request_duration_seconds_count 5",
                         "mihiraki_books 4", "mihiraki_renders_in_flight 0", "mihiraki_render_queue_depth 0",
                         "mihiraki_requests_busy_total 0", "# TYPE mihiraki_request_duration_seconds histogram"] {
                #expect(text.contains(line + "\n"), "\(line)\n\(text)")
            }
            #expect(!text.contains("manga.cbz"), "a book id is never a label")
            let bytes = text.split(separator: "\n").first { $0.hasPrefix("mihiraki_cache_bytes ") }
            #expect((bytes.flatMap { Int($0.split(separator: " ")[1]) } ?? 0) > 0)
            // Every sample line is `name{labels} value` with a number.
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                #expect(line.split(separator: " ").count == 2 && Double(line.split(separator: " ")[1]) != nil, "\(line)")
            }
        }
    }

    @Test("The access log: one JSON line per request, with time, method, path, status, bytes, duration and the cache")
    func accessLog() async throws {
        let lines = Mutex<[String]>([])
        try await RouteTests.withApp({ $0.accessLog = { line in lines.withLock { $0.append(line) } } }) { _, client in
            _ = try await RouteTests.get(client, "/api/books/manga.cbz/spreads/1.png?size=x100")
            _ = try await RouteTests.get(client, "/api/books/manga.cbz/spreads/1.png?size=x100")
            _ = try await RouteTests.get(client, "/api/books/%2E%2E/manifest")
            _ = try await RouteTests.get(client, "/healthz", method: .head)
        }
        let logged = lines.withLock { $0 }.map { line -> [String: Any] in
            #expect(!line.contains("\n"))
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        }
        #expect(logged.count == 4)
        #expect(logged.map { $0["status"] as? Int } == [200, 200, 400, 200])
        #expect(logged.map { $0["cache"] as? String } == ["miss", "hit", nil, nil])
        #expect(logged.map { $0["method"] as? String } == ["GET", "GET", "GET", "HEAD"])
        #expect(logged[0]["path"] as? String == "/api/books/manga.cbz/spreads/1.png?size=x100")
        #expect((logged[0]["bytes"] as? Int ?? 0) > 0 && logged[0]["duration_ms"] is Double)
        let time = logged[0]["time"] as? String ?? ""
        #expect(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil, "\(time)")
    }

    static let signer = try! URLSigner(hexKeys: "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881,00ff",
                                       hexSalts: "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5,")

    @Test("Signed URLs: imgproxy's scheme, any key of a rotation; unsigned, tampered or wrong ones 403; health and metrics open")
    func signing() async throws {
        let lines = Mutex<[String]>([])
        try await RouteTests.withApp({ options in
            options.signer = Self.signer
            options.accessLog = { line in lines.withLock { $0.append(line) } }
        }) { _, client in
            let path = "/api/books/manga.cbz/spreads/1.png?size=x100&direction=rtl"
            let good = try await RouteTests.get(client, Self.signer.signed(path))
            #expect(good.status == .ok && good.headers[.contentType] == "image/png")
            // The second pair of the rotation signs too.
            let second = URLSigner(pairs: [Self.signer.pairs[1]])
            #expect(try await RouteTests.get(client, second.signed(path)).status == .ok)
            let signature = Self.signer.signature(path)
            for bad in [path, "/s/" + signature + path.replacingOccurrences(of: "x100", with: "x101"),
                        "/s/" + signature.dropLast() + path, "/s/" + signature + "x" + path, "/s//api/books",
                        "/s/" + Self.signer.signature("/") + "/", "/"] {
                let answer = try await RouteTests.get(client, bad)
                #expect(answer.status == .forbidden, "\(bad)")
                #expect(Self.json(answer)["error"] is String)
            }
            #expect(try await RouteTests.get(client, "/healthz").status == .ok)
            #expect(try await RouteTests.get(client, "/metrics").status == .ok)
        }
        let logged = lines.withLock { $0 }
        #expect(logged.first?.contains(#""path":"/api/books/manga.cbz/spreads/1.png?size=x100&direction=rtl""#) == true,
                "\(logged.first ?? "")")
        #expect(!logged.contains { $0.contains("/s/") && $0.contains(#""status":200"#) })
    }

    @Test("--timeout: a render past it is 504 with a JSON error at the limit, its worker freed at once, and the server goes on")
    func timeout() async throws {
        // A page whose render takes several times the quarter-second limit on any machine (an 8000x12000
        // page onto a 4096-wide canvas, over a second on an idle one; a page a quarter of that size takes
        // about 0.5 s, too close to a limit for a timed answer). That the render stops at its
        // next row is DeadlineTests' to show, counted rather than timed: in-process, this test shares
        // Swift's cooperative threads with every other suite running at once, so here only what no busy
        // machine can change is checked.
        let limit = Duration.milliseconds(250)
        try await RouteTests.withApp({ $0.jobs = 1; $0.timeoutSeconds = 0.25 }, prepare: { library in
            _ = try library.folder.write("root/large/p1.png", try Fixtures.solidPNG(width: 8000, height: 12000, [200, 30, 30]))
        }) { _, client in
            // Opening a book past the limit is answered 504 but finishes and is kept: ask until it is there.
            func eventually(_ path: String) async throws -> InProcessClient.Answer {
                var answer = try await RouteTests.get(client, path)
                for _ in 0..<100 where answer.status == .gatewayTimeout {
                    try await Task.sleep(for: .milliseconds(50))
                    answer = try await RouteTests.get(client, path)
                }
                return answer
            }
            #expect(try await eventually("/api/books/large/manifest").status == .ok)
            #expect(try await eventually("/api/books/manga.cbz/manifest").status == .ok)
            let start = ContinuousClock.now
            let slow = try await RouteTests.get(client, "/api/books/large/spreads/1.png?size=4096x3072")
            let answered = ContinuousClock.now
            #expect(slow.status == .gatewayTimeout)
            #expect(RouteTests.error(slow)?.contains("--timeout") == true)
            #expect(answered - start >= limit)
            func metrics() async throws -> String { String(buffer: try await RouteTests.get(client, "/metrics").body) }
            while try await !metrics().contains("mihiraki_renders_in_flight 0\n") && ContinuousClock.now - answered < .seconds(60) {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(try await metrics().contains("mihiraki_renders_in_flight 0\n"), "the worker was freed")
            #expect(try await metrics().contains(#"mihiraki_requests_total{route="/api/books/:id/spreads/:file",status="504"} 1"# + "\n"))
            #expect(try await eventually("/api/books/manga.cbz/spreads/2.png?size=x100").status == .ok)
        }
        #expect(ServerOptions(root: "/").timeoutSeconds == 30)
    }

    @Test("The signature is HMAC-SHA256 of salt + path and query, URL-safe Base64 without padding, as Python's hmac computes it")
    func signatureAgainstPython() throws {
        let path = "/api/books/Series%20A%2Fvol1/spreads/3.webp?size=x300&background=%23102030"
        let run = try runTool("/usr/bin/python3", ["-c", """
            import base64, hashlib, hmac, sys
            key, salt = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
            print(base64.urlsafe_b64encode(hmac.new(key, salt + sys.argv[3].encode(), hashlib.sha256).digest()).rstrip(b"=").decode())
            """, "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881",
            "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5", path])
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == Self.signer.signature(path))
        #expect(URLSigner.base64URL([]) == "" && URLSigner.base64URL([0xFB, 0xFF]) == "-_8")
        // SHA-256 and HMAC across block boundaries and a key longer than a block, against Python's hashlib and hmac.
        for (key, length) in [(0, 0), (3, 55), (64, 56), (65, 64), (200, 1000)] {
            let keyBytes = (0..<key).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
            let python = try runTool("/usr/bin/python3", ["-c", """
                import hashlib, hmac, sys
                key, message = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
                print(hashlib.sha256(message).hexdigest(), hmac.new(key, message, hashlib.sha256).hexdigest())
                """, Self.hex(keyBytes), Self.hex(message)])
            #expect(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    == Self.hex(SHA256.digest(message)) + " " + Self.hex(SHA256.hmac(key: keyBytes, message)), "\(key), \(length)")
        }
        #expect(throws: ServerError.self) { try URLSigner(hexKeys: "zz", hexSalts: "00") }
        #expect(throws: ServerError.self) { try URLSigner(hexKeys: "00,11", hexSalts: "00") }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
