@testable import Mihiraki
import Testing

/// The split detector's measures on profiles built by hand (docs/pairing.md).
@Suite("Automatic pairing: the seam measures")
struct SeamScoreTests {
    /// A profile of `PageEdges.rows` bands (in 1/16 levels): white paper
    /// with dark panel borders 6 bands wide at `borders`, and between them
    /// thin gray lines two bands wide at heights drawn from `seed` (a small
    /// congruential generator), about one every 12 bands.
    static func profile(borders: [Int], seed: UInt32) -> [Int32] {
        var state = seed
        var levels = [Int32](repeating: 16 * 240, count: PageEdges.rows)
        for y in 0..<(PageEdges.rows - 1) {
            state = state &* 1_103_515_245 &+ 12345
            if (state >> 16) % 12 == 0 { levels[y] = 16 * 200; levels[y + 1] = 16 * 200 }
        }
        for border in borders { for y in border..<(border + 6) { levels[y] = 16 * 20 } }
        return levels
    }

    @Test("Ranks: lowest first, twice over, tied bands sharing their mean rank")
    func ranks() {
        #expect(SeamScore.ranks([30, 10, 20, 10, 30, 40]) == [7, 1, 4, 1, 7, 10])
        #expect(SeamScore.ranks([5, 5, 5]) == [2, 2, 2])
        #expect(SeamScore.ranks([]) == [])
    }

    @Test("Exact integer square roots, at and either side of perfect squares")
    func squareRoots() {
        for root: Int64 in [0, 1, 2, 3, 255, 4096, 94_906_265, 67_108_863] {
            #expect(SeamScore.squareRoot(root * root) == root)
            if root > 0 { #expect(SeamScore.squareRoot(root * root - 1) == root - 1) }
            #expect(SeamScore.squareRoot(root * root + 2 * root) == root)
        }
    }

    @Test("Panel borders at the same heights with different detail between them weigh less than continuing detail")
    func sharedBordersAreNotContinuation() throws {
        let borders = [40, 140, 260, 380, 470]
        let page = Self.profile(borders: borders, seed: 1)
        let continuing = Self.profile(borders: borders, seed: 1).map { $0 + 16 * 3 }
        let otherPage = Self.profile(borders: borders.map { $0 + 1 }, seed: 2)
        func score(_ a: [Int32], _ b: [Int32]) throws -> Int {
            try #require(SeamScore.score(.init(SeamScore.gradient(a)), .init(SeamScore.gradient(b))))
        }
        let same = try score(page, continuing), shared = try score(page, otherPage)
        #expect(same > 950, "\(same)")
        // The same pair correlated on the gradients themselves: the borders carry it.
        var raw = SeamScore.Detail(SeamScore.gradient(page)), rawOther = SeamScore.Detail(SeamScore.gradient(otherPage))
        raw.compressed = raw.gradient
        rawOther.compressed = rawOther.gradient
        let uncompressed = try #require(SeamScore.score(raw, rawOther))
        #expect(shared < 650 && uncompressed - shared > 50, "\(shared) compressed, \(uncompressed) not")
    }
}
