import Foundation
import Mihiraki
import MihirakiTestSupport
import Testing
@testable import MihirakiRequests
@testable import MihirakiServer

@Suite("Server parts: book ids, query parameters, the LRU cache", .tags(.server), .timeLimit(.minutes(10)))
struct ServerPartsTests {
    @Test("Ids decode once to plain relative paths", arguments: [
        ("Series%20A%2Fvol1", "Series A/vol1"), ("vol1.cbz", "vol1.cbz"), ("%E6%9C%AC", "本"), ("a%2Fb%2Fc", "a/b/c"),
        ("100%25", "100%"), ("v..1", "v..1"),
    ])
    func goodIDs(encoded: String, id: String) throws {
        #expect(try BookID.decode(Substring(encoded)) == id)
        #expect(try BookID.decode(Substring(BookID.encode(id))) == id, "encode and decode are inverse")
    }

    /// An id is a path's exact bytes (SPEC §7b): `bad%FFname` names the
    /// folder whose name holds byte 0xFF, and `%C0%AE` the file named by
    /// those two bytes (an overlong spelling of `.` in broken UTF-8
    /// decoders, but a name like any other to Linux, never `.`).
    @Test("Ids whose bytes are not UTF-8 decode to those exact bytes, and encode back to them",
          arguments: [("bad%FFname", Array("bad".utf8) + [0xFF] + Array("name".utf8)), ("%C0%AE", [0xC0, 0xAE]),
                      ("a%2F%E6%9C%AC%FE", [0x61, 0x2F, 0xE6, 0x9C, 0xAC, 0xFE])])
    func byteIDs(encoded: String, bytes: [UInt8]) throws {
        let id = try BookID.decode(Substring(encoded))
        #expect(FileSystem.bytes(ofPath: id) == bytes)
        #expect(BookID.encode(id) == encoded.replacingOccurrences(of: "%E6%9C%AC", with: "%E6%9C%AC"))
        #expect(try BookID.decode(Substring(BookID.encode(id))) == id)
    }

    @Test("Everything else is refused", arguments: [
        "", "..", ".", "%2E%2E", "a%2F..%2Fb", "%2Fetc", "a%2F%2Fb", "a%2F", "%00", "a%5Cb", "%zz", "%4",
        "%2525", "%252E%252E", "a%2F.%2Fb",
    ])
    func badIDs(encoded: String) {
        #expect(throws: ServerError.self) { try BookID.decode(Substring(encoded)) }
    }

    /// Random bytes, percent-encoded or not: decoding never traps, and what it
    /// accepts is always a path that stays where it is put.
    @Test("Random ids: no crash, and nothing accepted climbs out")
    func randomIDs() {
        var generator = SeededGenerator(seed: 14)
        let alphabet = Array("ab./%2FfE5C0\u{0}\\".unicodeScalars)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<12, using: &generator)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
            guard let id = try? BookID.decode(Substring(text)) else { continue }
            let components = id.split(separator: "/", omittingEmptySubsequences: false)
            #expect(!id.hasPrefix("/") && !components.contains("..") && !components.contains(".") && !components.contains(""),
                    "\(text) → \(id)")
            #expect(!id.contains("\u{0}") && !id.contains("\\"))
        }
    }

    @Test("Query parameters by their flag names; unknown names and bad values are 400")
    func query() throws {
        let options = try SpreadQuery.options([("size", "x300"), ("direction", "rtl"), ("solo", "3,5"), ("solo", "7"),
                                               ("background", "#102030"), ("quality", "60"), ("strip", "")],
                                              format: .webp, maxPixels: 1 << 30)
        #expect(options.direction == .rtl && options.soloPages == [3, 5, 7] && options.strip)
        #expect(options.encoding.format == .webp && options.encoding.quality == 60)
        for bad in [("size", "huge"), ("quality", "0"), ("solo", "0"), ("gap", "nan"), ("bogus", "1"), ("format", "png"),
                    ("background", String(repeating: "f", count: 300)), ("size", "65536x10")] {
            #expect(throws: ServerError.self, "\(bad)") { try SpreadQuery.options([bad], format: .png, maxPixels: 1 << 30) }
        }
        #expect(throws: ServerError.self) { try SpreadQuery.options([("size", "2000x2000")], format: .png, maxPixels: 1000) }
    }

    @Test("The cache keeps the most recently used within its budget")
    func lru() {
        let cache = LRUCache<Int, String>(capacity: 10)
        for key in 1...4 { cache.insert("v\(key)", for: key, cost: 3) }  // 12 > 10: key 1 goes
        #expect(cache.value(for: 1) == nil && cache.count == 3 && cache.totalCost == 9)
        _ = cache.value(for: 2)                                          // 2 is now the newest
        cache.insert("v5", for: 5, cost: 3)                              // evicts 3, the oldest
        #expect(cache.value(for: 3) == nil && cache.value(for: 2) == "v2" && cache.value(for: 5) == "v5")
        cache.insert("huge", for: 9, cost: 11)                           // larger than the budget: not kept
        #expect(cache.value(for: 9) == nil && cache.totalCost <= 10)
        cache.insert("v2'", for: 2, cost: 1)                             // replacing updates the cost
        #expect(cache.value(for: 2) == "v2'" && cache.totalCost == 7)
    }
}

@Suite("Server parts: rescanning a library", .tags(.server), .timeLimit(.minutes(10)))
struct CatalogRescanTests {
    @Test("A rescan reads only the folders whose entries changed; a page rewritten in place changes its book's signature")
    func incremental() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try Fixtures.solidPNG(width: 8, height: 12, [90])
        for series in ["A", "B"] {
            for volume in 1...3 { try folder.write("root/\(series)/v\(volume)/p1.png", page) }
        }
        let catalog = try BookCatalog(root: folder.path + "/root", refreshSeconds: 0)
        let root = catalog.root
        var first = BookCatalog.Scan(root: root, known: [:])
        #expect(first.run()?.map(\.id) == ["A/v1", "A/v2", "A/v3", "B/v1", "B/v2", "B/v3"])
        #expect(first.read.count == 9, "\(first.read)")
        // Nothing changed: every folder costs a stat, none is read, and the books are the last scan's.
        var unchanged = BookCatalog.Scan(root: root, known: first.seenFolders)
        #expect(unchanged.run() == nil && unchanged.read.isEmpty)
        // A new volume: its series and the volume itself are read, nothing else.
        try folder.write("root/B/v4/p1.png", page)
        var grown = BookCatalog.Scan(root: root, known: unchanged.seenFolders)
        #expect(grown.run()?.map(\.id).last == "B/v4")
        #expect(grown.read == [root + "/B", root + "/B/v4"], "\(grown.read)")
        // A volume removed: its series is read, and the book is gone.
        try FileManager.default.removeItem(atPath: folder.path + "/root/A/v2")
        var shrunk = BookCatalog.Scan(root: root, known: grown.seenFolders)
        #expect(shrunk.run()?.map(\.id) == ["A/v1", "A/v3", "B/v1", "B/v2", "B/v3", "B/v4"])
        #expect(shrunk.read == [root + "/A"])
        // A page rewritten in place leaves its folder's entries alone, but not the book's signature.
        let before = try #require(catalog.book("B/v1")).signature
        try folder.write("root/B/v1/p1.png", try Fixtures.solidPNG(width: 8, height: 13, [90]))
        #expect(try #require(catalog.book("B/v1")).signature != before)
    }
}

@Suite("Server parts: the render queue", .tags(.server), .timeLimit(.minutes(10)))
struct RenderQueueTests {
    /// A render that finishes long before its deadline is answered with its
    /// result, every time. The timer that would answer 504 is cancelled when
    /// the result arrives, and a cancelled timer must not answer: it once
    /// did, racing the result, and a browser test saw a 504 for a spread that
    /// had rendered in milliseconds. (Each round waits for a thread of the
    /// cooperative pool, which the process suites running beside it hold
    /// for seconds at a time, so the rounds are 5,000 and the limit wide.)
    @Test("A render done before its deadline is never answered 504")
    func finishedBeforeDeadline() async throws {
        let queue = RenderQueue(workers: 2, queue: 64)
        let deadline = ContinuousClock.now + .seconds(600)
        var timedOut = 0
        for round in 0..<5_000 {
            do {
                let value = try await queue.run(key: ExactKey("r\(round)"), deadline: deadline) { round }
                #expect(value == round)
            } catch let error as ServerError where error.status == .gatewayTimeout {
                timedOut += 1
            }
        }
        #expect(timedOut == 0, "\(timedOut) of 5,000 renders answered 504 with ten minutes to spare")
    }
}

@Suite("Server parts: access-log lines", .tags(.server))
struct AccessLogLineTests {
    /// The hand-written line is the JSON object the log has always written:
    /// any path survives a round trip through a JSON parser, keys sorted.
    @Test("A line is valid JSON with every field, whatever the path holds; keys sorted; the time in UTC")
    func lines() throws {
        let paths = ["/api/books/a%20b/spreads/1.png?size=x300", "/\"quoted\"\\back\\slash", "/tab\there\nnewline\u{01}\u{1F}",
                     "/日本語/見開き", "/emoji/🙂", ""]
        var when = timespec()
        when.tv_sec = 1_795_602_930  // 2026-11-25T10:35:30Z
        when.tv_nsec = 7_000_000
        for path in paths {
            for cache in [nil, "hit", "miss"] as [String?] {
                let line = AccessLog.line(method: "GET", path: path, status: 200, bytes: 1234, seconds: 0.0123456, cache: cache, now: when)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                #expect(object["path"] as? String == path)
                #expect(object["method"] as? String == "GET")
                #expect(object["status"] as? Int == 200)
                #expect(object["bytes"] as? Int == 1234)
                #expect((object["duration_ms"] as? Double).map { abs($0 - 12.346) < 1e-9 } == true, "\(line)")
                #expect(object["cache"] as? String == cache)
                #expect(object["time"] as? String == "2026-11-25T10:35:30.007Z")
                let keys = line.matches(of: /"([a-z_]+)":/).map { String($0.output.1) }
                #expect(keys == keys.sorted() && Set(keys) == Set(object.keys), "\(line)")
                #expect(!line.contains("\n"))
            }
        }
    }
}
