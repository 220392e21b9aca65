import Foundation
import MihirakiTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every kind of book a user serves, through `mihiraki serve` as it starts
/// by default (confined rendering workers): the workers may read ROOT and
/// write only a scratch folder of the server's own, which a tar, 7z or RAR
/// book is unpacked into, and nothing of it outlives the server.
@Suite("mihiraki serve: every book kind through the default workers", .serialized, .tags(.process, .server),
       .timeLimit(.minutes(10)))
struct BookKindsServedTests {
    /// A root with one book of every kind, the archives made by bsdtar.
    static func root(_ folder: TemporaryFolder) throws -> String {
        let root = folder.path + "/root"
        let pages = try (1...3).map { i in ("p\(i).png", try Fixtures.solidPNG(width: 60, height: 90, [UInt8(50 * i), 90, 30])) }
        for (name, bytes) in pages { _ = try folder.write("pages/\(name)", bytes) }
        for (name, bytes) in pages { _ = try folder.write("root/folder/\(name)", bytes) }
        _ = try folder.writeArchive("root/zip.cbz", pages)
        for (name, format) in [("tar.cbt", "ustar"), ("7z.cb7", "7zip")] {
            let made = try runTool("/usr/bin/bsdtar", ["--format", format, "-cf", root + "/" + name, "-C", folder.path + "/pages", "."])
            try #require(made.status == 0, "\(made.stderr)")
        }
        _ = try folder.write("root/rar.cbr", RAR4Writer.archive(pages.map { (name: $0.0, bytes: $0.1) }))
        for name in ["fixed-rtl.epub", "img2pdf.pdf"] {
            let source = Fixtures.testImages.appendingPathComponent(name.hasSuffix(".pdf") ? "pdf" : "epub").appendingPathComponent(name)
            _ = try folder.write("root/" + name, try Fixtures.bytes(source))
        }
        return root
    }

    /// The library of ``root(_:)`` in a new folder, with an empty folder to be `TMPDIR`.
    static func library() throws -> (folder: TemporaryFolder, root: String, scratch: String) {
        let folder = try TemporaryFolder("mihiraki-kinds")
        let scratch = folder.path + "/tmp"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        return (folder, try root(folder), scratch)
    }

    @Test("A folder, CBZ, tar, 7z, RAR, EPUB and PDF book each serve their spreads, as the CLI renders them; TMPDIR is left as it was")
    func everyKind() async throws {
        try await onOwnThread {
            let (folder, root, scratch) = try Self.library()
            defer { folder.remove() }
            let server = try RunningServer(root: root, ["--quiet"], environment: ["TMPDIR": scratch])
            let books = ["folder", "zip.cbz", "tar.cbt", "7z.cb7", "rar.cbr", "fixed-rtl.epub", "img2pdf.pdf"]
            for book in books {
                let answer = try httpGet(server, "/api/books/\(book)/spreads/1.png?size=x100")
                #expect(answer.status == 200, "\(book): \(answer.status) \(answer.text.prefix(300))")
                let out = folder.path + "/cli"
                let run = try mihiraki(["render", root + "/" + book, "-o", out, "--size", "x100"])
                #expect(run.status == 0, "\(run.stderr)")
                let name = book.contains(".") ? String(book[..<book.lastIndex(of: ".")!]) : book
                let written = try Fixtures.bytes(URL(fileURLWithPath: out + "/" + name + "/spread-001.png"))
                #expect(Array(answer.body) == written, "\(book): the served spread differs from the CLI's")
            }
            // While the server runs its workers write only in their own folder, and hold no named file there.
            let during = try FileManager.default.contentsOfDirectory(atPath: scratch)
            #expect(during.count == 1 && during[0].hasPrefix("mihiraki-workers-"), "\(during)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/" + during[0]).isEmpty)
            #expect(server.stop() == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "the scratch folder outlived the server")
            #expect(server.stderr.isEmpty, "\(server.stderr.prefix(500))")
        }
    }

    /// A ROOT holding `good/` and `bad\xFFname/` listed only `good`, without
    /// a word, and `bad%FFname` was 400: an id is the path's exact bytes.
    @Test("A book folder whose name is not UTF-8 is listed, its url the bytes percent-encoded, and served")
    func undecodableBookName() async throws {
        try await onOwnThread {
            let folder = try TemporaryFolder("mihiraki-kinds")
            defer { folder.remove() }
            let page = try Fixtures.solidPNG(width: 60, height: 90, [120])
            _ = try folder.write("root/good/p1.png", page)
            let bad = Array((folder.path + "/root/bad").utf8) + [0xFF] + Array("name".utf8)
            _ = (bad + [0]).withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) }
            let file = bad + Array("/p1.png".utf8) + [0]
            let fd = file.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
            try #require(fd >= 0)
            _ = page.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            let server = try RunningServer(root: folder.path + "/root", ["--quiet"])
            defer { server.stop() }
            let list = try httpGet(server, "/api/books")
            let books = (try JSONSerialization.jsonObject(with: list.body) as? [String: Any])?["books"] as? [[String: Any]] ?? []
            #expect(Set(books.compactMap { $0["url"] as? String }) == ["/api/books/good", "/api/books/bad%FFname"], "\(list.text)")
            let spread = try httpGet(server, "/api/books/bad%FFname/spreads/1.png?size=x100")
            #expect(spread.status == 200, "\(spread.text.prefix(300))")
            #expect(spread.body == (try httpGet(server, "/api/books/good/spreads/1.png?size=x100")).body)
            let manifest = try httpGet(server, "/api/books/bad%FFname/manifest")
            #expect(manifest.text.contains(#""book": "bad\\xFFname""#), "\(manifest.text.prefix(200))")
        }
    }

    @Test("Nothing a tar or 7z book unpacks outlives the process, however it ends: served in-process and stopped, or killed mid-render",
          arguments: ["SIGTERM", "SIGKILL"])
    func nothingLeftBehind(signal: String) async throws {
        try await onOwnThread {
            let (folder, root, scratch) = try Self.library()
            defer { folder.remove() }
            for round in 1...3 {
                let server = try RunningServer(root: root, ["--workers", "0", "--quiet"], environment: ["TMPDIR": scratch])
                for book in ["tar.cbt", "7z.cb7", "rar.cbr"] {
                    #expect(try httpGet(server, "/api/books/\(book)/spreads/\(1 + round % 2).png?size=x100").status == 200)
                }
                if signal == "SIGKILL" {
                    kill(server.process.processIdentifier, SIGKILL)
                    server.process.waitUntilExit()
                } else {
                    #expect(server.stop() == 0)
                }
                #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "round \(round)")
            }
        }
    }
}
