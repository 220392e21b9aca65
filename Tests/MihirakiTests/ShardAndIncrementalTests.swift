import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki

@Suite("Shards, fingerprints and temporaries", .tags(.library), .timeLimit(.minutes(10)))
struct ShardAndIncrementalTests {
    @Test("--shard K/N parses only 1 ≤ K ≤ N")
    func parsing() {
        #expect(Shard(parsing: "2/4") == Shard(parsing: "2/4") && Shard(parsing: "2/4")?.index == 2)
        for bad in ["0/4", "5/4", "1/0", "a/b", "1", "1/2/3", "-1/2", ""] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
    }

    @Test("Every book is in exactly one shard; adding books moves no other book; shards are about even")
    func assignment() throws {
        let names = (1...1000).map { "Series \($0 % 37)/vol\($0)" }
        let shards = (1...4).map { Shard(parsing: "\($0)/4")! }
        let owners = names.map { name in shards.filter { $0.contains(outputName: name) }.map(\.index) }
        #expect(owners.allSatisfy { $0.count == 1 })
        let sizes = (1...4).map { k in owners.filter { $0 == [k] }.count }
        #expect(sizes.allSatisfy { (200...300).contains($0) }, "\(sizes)")
        // The assignment depends on the name alone: the same in another "run" with more books.
        let more = names + (1...500).map { "new \($0)" }
        for name in more.prefix(names.count) {
            #expect(shards.first { $0.contains(outputName: name) }!.index
                    == owners[names.firstIndex(of: name)!][0])
        }
        // A stable value, the same on every machine and in every process.
        #expect(Shard.shard(of: "vol01", count: 1000) == Shard.shard(of: "vol01", count: 1000))
        #expect(Book.outputName(forPath: "lib/vol01.cbz") == "vol01" && Book.outputName(forPath: "lib/vol.01/") == "vol.01")
    }

    @Test("The fingerprint follows content, not time stamps; a ZIP's stored CRCs give the folder's value")
    func fingerprint() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = try Fixtures.solidPNG(width: 20, height: 30, [10]), b = try Fixtures.solidPNG(width: 20, height: 30, [11])
        #expect(a.count == b.count && a != b)
        try folder.write("book/p1.png", a)
        try folder.write("book/p2.png", a)
        try folder.writeArchive("zip/book.cbz", [("p1.png", a), ("p2.png", a)], deflate: true)
        func print(_ path: String, _ configure: (inout LayoutOptions) -> Void = { _ in }) throws -> String {
            var options = LayoutOptions()
            configure(&options)
            return try Fingerprint.of(try SpreadPlan(book: try Book.load(path), options: options), run: RunOptions())
        }
        let before = try print(folder.path + "/book")
        let again = try print(folder.path + "/book"), zipped = try print(folder.path + "/zip/book.cbz")
        let gapped = try print(folder.path + "/book") { $0.gap = 1 }
        #expect(before.count == 16 && before == again)
        #expect(before == zipped)
        #expect(before != gapped)
        // Same size, same modification time, other bytes.
        let path = folder.path + "/book/p2.png"
        let stamp = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
        try Data(b).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: path)
        let changed = try print(folder.path + "/book")
        #expect(before != changed)
        // ComicInfo.xml and KCC's spread labels beside the book are content too:
        // the fingerprint, and the server's content key, follow them.
        let content = { try Fingerprint.content(of: try Book.load(folder.path + "/book")) }
        let withoutInfo = try content()
        try folder.write("book/ComicInfo.xml", Array("<ComicInfo><Manga>No</Manga></ComicInfo>".utf8))
        let withInfo = try content(), printedWithInfo = try print(folder.path + "/book")
        try folder.write("book/ComicInfo.xml", Array("<ComicInfo><Manga>YesAndRightToLeft</Manga></ComicInfo>".utf8))
        #expect(withInfo != withoutInfo && printedWithInfo != changed)
        let withInfoRTL = try content(), printedRTL = try print(folder.path + "/book")
        #expect(withInfoRTL != withInfo && printedRTL != printedWithInfo)
        try folder.write("book.json", Array(#"{"spreads": [0]}"#.utf8))
        let withLabels = try content()
        try folder.write("book.json", Array(#"{"spreads": [1]}"#.utf8))
        let otherLabels = try content()
        #expect(withLabels != withInfoRTL && otherLabels != withLabels)
    }

    @Test("Cleanup removes only temporaries whose writer is gone from this host, or that are old")
    func temporaries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let host = FileSystem.hostTag, me = getpid()
        let gone: Int32 = 4_000_000  // above any pid_max: no such process
        // A writer killed and not yet collected by its parent (a zombie): dead, though its number is still taken.
        var zombie: pid_t = 0
        let arguments = [strdup("true"), nil]
        defer { free(arguments[0]) }
        try #require(posix_spawn(&zombie, "/bin/true", nil, nil, arguments, nil) == 0)
        defer { var status: Int32 = 0; waitpid(zombie, &status, 0) }
        while (try? String(contentsOfFile: "/proc/\(zombie)/stat", encoding: .utf8))?.contains(") Z ") != true { usleep(1000) }
        let names = [
            ".spread-001.png.~\(host)~\(gone)~1.tmp",     // this host, writer gone: removed
            ".spread-002.png.~\(host)~\(me)~2.tmp",       // this host, writer alive: kept
            ".spread-003.png.~elsewhere~\(gone)~3.tmp",   // another host, recent: kept
            ".spread-004.png.~elsewhere~\(gone)~4.tmp",   // another host, two days old: removed
            ".spread-005.png.\(gone).5.tmp",              // the first version's name, writer gone: removed
            ".notes.tmp", "spread-006.png",               // not temporaries: kept
            ".spread-007.png.~\(host)~\(zombie)~7.tmp",   // this host, writer a zombie: removed
            ".spread-008.png.~\(host)~\(me)~8.tmp",       // this host, written before its process started: removed
        ]
        for name in names { try folder.write(name, [1]) }
        let old = Date(timeIntervalSinceNow: -2 * 24 * 3600)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.path + "/" + names[3])
        // Written 23 hours ago, before this process started (younger than the stale age): another writer had its number.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -23 * 3600)],
                                              ofItemAtPath: folder.path + "/" + names[8])
        FileSystem.removeStaleTemporaries(in: folder.path)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(left == [names[1], names[2], names[5], names[6]])
        #expect(FileSystem.temporaryOwner(FileSystem.temporaryName(for: "a.b.png"))?.host == host)
        #expect(FileSystem.temporaryOwner(FileSystem.temporaryName(for: "a.b.png"))?.pid == me)
    }
}
