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

@Suite("mihiraki serve in-process: links, names, rewritten pages and invalid options", .tags(.server), .timeLimit(.minutes(10)))
struct RouteLinkTests {
    /// A linked page out of ROOT was dropped without a word, and every page
    /// after it paired with a different partner: the book fails, naming it.
    @Test("Links out of ROOT: a linked folder is not a book; a linked page is not read and fails its book by name")
    func symlinks() async throws {
        try await RouteTests.withApp { _, client in
            let manifest = try await RouteTests.get(client, "/api/books/leaky/manifest?layout=single")
            #expect(manifest.status == .unprocessableContent)
            #expect(RouteTests.error(manifest) == "leaky/p2.png: leaves the served folder (a symbolic link outside it)", "\(String(buffer: manifest.body))")
            let spread = try await RouteTests.get(client, "/api/books/leaky/spreads/1.png")
            #expect(spread.status == .unprocessableContent && RouteTests.error(spread)?.contains("leaky/p2.png") == true)
            #expect(!String(buffer: try await RouteTests.get(client, "/api/books").body).contains("escape"))
        }
    }

    /// Two links back up inside a book folder made the walk that stamps the
    /// book for its ETag go on for ever, and the request with it: each such
    /// request held a core until the server was stopped.
    @Test("A book folder with links back up into itself: its manifest and spreads are served, each page once")
    func folderLinkingBack() async throws {
        try await RouteTests.withApp({ _ in }, prepare: { library in
            _ = try library.folder.write("root/looped/p1.png", try Fixtures.solidPNG(width: 60, height: 90, [40]))
            _ = try library.folder.write("root/looped/ch/p2.png", try Fixtures.solidPNG(width: 60, height: 90, [80]))
            _ = try library.folder.write("root/looped/ch2/p3.png", try Fixtures.solidPNG(width: 60, height: 90, [120]))
            try FileManager.default.createSymbolicLink(atPath: library.root + "/looped/ch/up", withDestinationPath: "..")
            try FileManager.default.createSymbolicLink(atPath: library.root + "/looped/ch2/again", withDestinationPath: "../ch")
        }) { _, client in
            let manifest = try await RouteTests.get(client, "/api/books/looped/manifest?layout=single")
            #expect(manifest.status == .ok, "\(String(buffer: manifest.body))")
            let text = String(buffer: manifest.body)
            #expect(["ch/p2.png", "ch2/p3.png", "p1.png"].allSatisfy { text.components(separatedBy: $0).count == 2 }, "\(text)")
            #expect(!text.contains("up/") && !text.contains("again/"), "\(text)")
            #expect(try await RouteTests.get(client, "/api/books/looped/spreads/3.png?layout=single&size=x50").status == .ok)
        }
    }

    @Test("A link inside ROOT to another book: both ids list and serve the book")
    func aliasLink() async throws {
        try await RouteTests.withApp({ _ in }, prepare: { library in
            try FileManager.default.createSymbolicLink(atPath: library.root + "/alias", withDestinationPath: library.root + "/broken")
        }) { _, client in
            let list = String(buffer: try await RouteTests.get(client, "/api/books").body)
            #expect(list.contains(#""id":"alias""#) && list.contains(#""id":"broken""#), "\(list)")
            #expect(try await RouteTests.get(client, "/api/books/broken/manifest").status == .ok)
            #expect(try await RouteTests.get(client, "/api/books/alias/manifest").status == .ok)
        }
    }

    @Test("Two folders whose names differ only in Unicode normalisation are two books, each served by its own id")
    func normalisation() async throws {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        try await RouteTests.withApp({ _ in }, prepare: { library in
            let jpeg = try Fixtures.bytes(Fixtures.sampleBook.appendingPathComponent("page1.jpg"))
            for i in 1...10 { _ = try library.folder.write("root/\(nfc)/p\(i).jpg", jpeg) }
            for i in 1...8 { _ = try library.folder.write("root/\(nfd)/p\(i).png", try Fixtures.solidPNG(width: 60, height: 90, [7])) }
        }) { _, client in
            for _ in 0..<3 {  // the same list on every scan
                let json = try JSONSerialization.jsonObject(with: Data(buffer: try await RouteTests.get(client, "/api/books").body))
                let ids = ((json as? [String: Any])?["books"] as? [[String: String]] ?? []).map { Array($0["id"]!.utf8) }
                #expect(ids.filter { $0 == Array(nfc.utf8) }.count == 1 && ids.filter { $0 == Array(nfd.utf8) }.count == 1)
            }
            let encodedNFC = nfc.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let encodedNFD = nfd.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let jpegBook = String(buffer: try await RouteTests.get(client, "/api/books/\(encodedNFC)/manifest?layout=single").body)
            let pngBook = String(buffer: try await RouteTests.get(client, "/api/books/\(encodedNFD)/manifest?layout=single").body)
            #expect(jpegBook.contains("p10.jpg") && !jpegBook.contains("p1.png"), "\(jpegBook.prefix(300))")
            #expect(pngBook.contains("p8.png") && !pngBook.contains("p1.jpg"), "\(pngBook.prefix(300))")
        }
    }

    @Test("A page rewritten with its old size and modification time is noticed: a new ETag and new bytes")
    func sameSizeSameTime() async throws {
        try await RouteTests.withApp({ $0.refreshSeconds = 0 }, prepare: { library in
            // Stored, not compressed: every gray value gives a file of the same size.
            _ = try library.folder.write("root/broken/p1.png", storedPNG(width: 60, height: 90, gray: 10))
        }) { library, client in
            let path = "/api/books/broken/spreads/1.png?size=x120"
            let first = try await RouteTests.get(client, path)
            let etag = try #require(first.headers[.eTag])
            let page = library.root + "/broken/p1.png"
            var before = stat()
            try #require(stat(page, &before) == 0)
            let replacement = storedPNG(width: 60, height: 90, gray: 200)
            try #require(replacement.count == Int(before.st_size))
            // Overwritten in place, then its times set back to the nanosecond, as os.utime does.
            let fd = open(page, O_WRONLY | O_TRUNC)
            try #require(fd >= 0)
            _ = replacement.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            var times = [before.st_atim, before.st_mtim]
            try #require(utimensat(AT_FDCWD, page, &times, 0) == 0)
            var after = stat()
            try #require(stat(page, &after) == 0 && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec
                         && after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_ino == before.st_ino)
            let changed = try await RouteTests.afterRescan(client, path, etag: etag)
            #expect(changed.status == .ok && changed.headers[.eTag] != etag && changed.body != first.body)
        }
    }

    @Test("Invalid server options are refused before anything is served")
    func invalidOptions() throws {
        for configure: (inout ServerOptions) -> Void in [{ $0.jobs = 0 }, { $0.port = 70000 }, { $0.queue = -1 },
                                                         { $0.refreshSeconds = .nan }, { $0.maxPixels = 0 }] {
            var options = ServerOptions(root: "/")
            configure(&options)
            #expect(throws: MihirakiError.self) { try options.validate() }
        }
    }
}
