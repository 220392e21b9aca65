import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore

/// `render --pairing auto` draws each page in the decode that reads its
/// edges (kept in the run's `PageCache`): the files must be the bytes a render that decodes
/// every page again writes, including where a split moves a page beside a
/// colour page or a blank.
@Suite("Automatic pairing: pages drawn while their edges are read", .tags(.library), .timeLimit(.minutes(10)))
struct PairingRenderTests {
    @Test("The same files as drawing every page again: gray, colour and mixed books, LTR and RTL, two sizes, 1 and 2 jobs")
    func drawnAheadIsTheSameBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The shared seed-7 set, copied: pages are added to it below.
        let fileManager = FileManager.default
        try fileManager.copyItem(atPath: try Fixtures.pairingSet(), toPath: folder.path + "/set")
        // A colour page (a PNG) in a gray book: its neighbours' canvases change layout where a split moves them.
        try fileManager.copyItem(atPath: folder.path + "/set/book004-ltr/p003.jpg", toPath: folder.path + "/set/book002-ltr/p005a.jpg")
        let colour = try PageDecoder.decode(Fixtures.bytes(URL(fileURLWithPath: folder.path + "/set/book004-ltr/p006.jpg")))
        try folder.write("set/book001-ltr/p007a.png", try PNGEncoder.encode(colour))
        let books = try fileManager.contentsOfDirectory(atPath: folder.path + "/set").filter { $0.hasPrefix("book") }.sorted()
            .map { folder.path + "/set/" + $0 }
        let runs: [(CanvasSize, Int, ReadingDirection)] = [(.height(300), 1, .ltr), (.height(300), 2, .rtl),
                                                           (.exact(width: 1400, height: 1000), 2, .ltr)]
        for (size, jobs, direction) in runs {
            do {
                var options = LayoutOptions()
                options.size = size
                options.direction = direction
                options.pairing = .auto
                var run = RunOptions()
                run.jobs = jobs
                let ahead = BookRenderer.plan(books, options: options, run: run)
                try #require(ahead.failed == 0 && ahead.plans.count == books.count)
                let again = try books.map { try SpreadPlan(book: Book.load($0), options: options, jobs: jobs) }
                let drawn = ahead.plans.map { ahead.cache.byteCount(of: $0.book.path) }
                #expect(drawn.allSatisfy { $0 > 0 }, "\(drawn)")
                let root = folder.path + "/out-\(jobs)-\(size)-\(direction)"
                _ = try BookRenderer.render(ahead, into: root + "/ahead", options: run)
                _ = try BookRenderer.render(again, into: root + "/again", options: run)
                var files = 0
                for book in books {
                    let name = URL(fileURLWithPath: book).lastPathComponent
                    let written = try fileManager.contentsOfDirectory(atPath: root + "/again/" + name).sorted()
                    #expect(try fileManager.contentsOfDirectory(atPath: root + "/ahead/" + name).sorted() == written)
                    for file in written {
                        let a = try Data(contentsOf: URL(fileURLWithPath: root + "/ahead/" + name + "/" + file))
                        let b = try Data(contentsOf: URL(fileURLWithPath: root + "/again/" + name + "/" + file))
                        #expect(a == b, "\(name)/\(file) at \(size), \(jobs) jobs, \(direction)")
                        files += 1
                    }
                }
                #expect(files > 30)
                // A page drawn ahead is taken when it kept its size and canvas layout. A split can move a page
                // beside a colour page (the mixed books), or to the other side of the spine, where at 1400×1000
                // its snapped rectangle is a pixel wider (a 642.5-pixel slot): those pages are drawn again. At
                // x300 the gray and the colour book take every page.
                let left = ahead.plans.map { ahead.cache.byteCount(of: $0.book.path) }
                #expect(zip(left, drawn).allSatisfy { $0 < $1 * 2 / 3 }, "\(left) of \(drawn)")
                if size == .height(300) { #expect(left[2] == 0 && left[3] == 0, "\(left)") }
            }
        }
    }
}
