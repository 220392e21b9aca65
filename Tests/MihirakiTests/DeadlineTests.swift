import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki

/// A render given a deadline (what `serve --timeout` hands each render)
/// stops once it has passed, and otherwise writes the same bytes.
@Suite("Renders with a deadline", .tags(.library), .timeLimit(.minutes(2)))
struct DeadlineTests {
    /// Two large pages: a render of the cover spread takes long enough to be stopped half-way.
    static func largeBook() throws -> (TemporaryFolder, BookPlan) {
        let (folder, book) = try flatBook([(2000, 3000, [200, 30, 30]), (2000, 3000, [30, 30, 200])])
        var options = LayoutOptions()
        options.size = .exact(width: 4000, height: 3000)
        return (folder, try BookPlan(book: book, options: options))
    }

    /// A book of three small pages.
    static func smallBook() throws -> (TemporaryFolder, BookPlan) {
        let (folder, book) = try flatBook([(300, 450, [200, 30, 30]), (300, 450, [30, 30, 200]), (300, 450, [90])])
        return (folder, try BookPlan(book: book, options: small()))
    }

    @Test("A deadline still ahead changes nothing: the same bytes as a render without one")
    func aheadChangesNothing() throws {
        let (folder, plan) = try Self.smallBook()
        defer { folder.remove() }
        let later = ContinuousClock.now + .seconds(3600)
        for index in 0..<plan.spreadCount {
            #expect(try plan.spreadFile(at: index, deadline: later) == (try plan.spreadFile(at: index)))
        }
    }

    @Test("A deadline already passed stops the render before it reads a page")
    func passedStopsAtOnce() throws {
        let (folder, plan) = try Self.smallBook()
        defer { folder.remove() }
        try FileManager.default.removeItem(atPath: folder.path + "/book/p1.png")  // would be a read error if read
        let error = #expect(throws: MihirakiError.self) { try plan.spreadFile(at: 0, deadline: .now) }
        #expect(error?.code == .timedOut)
        #expect(error?.description.contains("time limit") == true)
    }

    @Test("A deadline passing mid-page stops the render at the next row, long before the page would end")
    func passingStopsMidPage() throws {
        let (folder, plan) = try Self.largeBook()
        defer { folder.remove() }
        // The cover spread: one page beside a blank, so only a row can stop it.
        let clock = ContinuousClock()
        let whole = try clock.measure { _ = try plan.renderSpread(at: 0) }
        let start = ContinuousClock.now
        let error = #expect(throws: MihirakiError.self) {
            try plan.spreadFile(at: 0, deadline: start + whole / 10)
        }
        let stopped = ContinuousClock.now - start
        #expect(error?.code == .timedOut)
        // Stopped near a tenth of the way: well before half of the whole render.
        #expect(stopped < whole / 2, "stopped after \(stopped) of \(whole)")
    }
}
