import Foundation
import Synchronization
import MihirakiTestSupport
import Testing
@testable import Mihiraki

/// A render given a deadline (what `serve --timeout` hands each render)
/// stops once it has passed, and otherwise writes the same bytes.
@Suite("Renders with a deadline", .tags(.library), .timeLimit(.minutes(10)))
struct DeadlineTests {
    /// Two pages of 1,800 rows.
    static func largeBook() throws -> (TemporaryFolder, SpreadPlan) {
        let (folder, book) = try flatBook([(1200, 1800, [200, 30, 30]), (1200, 1800, [30, 30, 200])])
        var options = LayoutOptions()
        options.size = .exact(width: 2400, height: 1800)
        return (folder, try SpreadPlan(book: book, options: options))
    }

    /// A book of three small pages.
    static func smallBook() throws -> (TemporaryFolder, SpreadPlan) {
        let (folder, book) = try flatBook([(300, 450, [200, 30, 30]), (300, 450, [30, 30, 200]), (300, 450, [90])])
        return (folder, try SpreadPlan(book: book, options: small()))
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

    @Test("A deadline passing mid-page stops the render at the next decoded row")
    func passingStopsMidPage() throws {
        let (folder, plan) = try Self.largeBook()
        defer { folder.remove() }
        // A deadline that turns past at its 100th question, counting every question.
        let asked = Mutex(0)
        let deadline = RenderDeadline { asked.withLock { $0 += 1; return $0 > 100 } }
        // The cover spread: one 1,800-row page beside a blank, so only a row can stop it.
        let error = #expect(throws: MihirakiError.self) { try plan.renderSpread(at: 0, observer: nil, deadline: deadline) }
        #expect(error?.code == .timedOut)
        #expect(asked.withLock { $0 } == 101, "stopped at the first question after it turned past")
        // Without a deadline the same spread asks nothing and renders.
        #expect(try plan.renderSpread(at: 0).width == 2400)
    }
}
