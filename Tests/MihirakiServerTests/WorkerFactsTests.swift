import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiRequests
@testable import MihirakiServer

/// A rendering worker keeps the newest plan of each book version, so a
/// request with other options measures only what they change.
@Suite("mihiraki serve: a rendering worker measures a book once", .tags(.server))
struct WorkerFactsTests {
    @Test("Another format with the same crop reuses the cuts the worker measured: pages damaged since are not read")
    func cutsMeasuredOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for index in 1...3 {
            try folder.write("root/book/p\(index).png", try Fixtures.solidPNG(width: 300, height: 400, [UInt8(60 * index)]))
        }
        let root = folder.path + "/root"
        let worker = SpreadWorker.Worker(settings: WorkerPool.Settings(root: root, resolvedRoot: root, maxPixels: 200_000_000,
                                                                       memoryBytes: 0))
        func manifest(_ format: String, limit: String = "10") throws -> String {
            let request = WorkerRequest(path: root + "/book", signature: "one version",
                                        query: [["size", "x200"], ["crop-borders", "1"], ["crop-limit", limit]],
                                        format: format, spread: 0, millisecondsLeft: 60_000, manifest: true)
            return String(decoding: try worker.render(request), as: UTF8.self)
        }
        let png = try manifest("png")
        // Every page is damaged now, the version unchanged: a plan that reads one fails.
        for index in 1...3 { try folder.write("root/book/p\(index).png", Array("not a picture".utf8)) }
        let webp = try manifest("webp")
        #expect(webp.replacingOccurrences(of: ".webp", with: ".png") == png)
        // Another crop limit asks something else of every page: it is measured, and fails naming the page.
        #expect { try manifest("png", limit: "5") } throws: { ($0 as? ServerError)?.message.contains("p1.png") == true }
    }
}
