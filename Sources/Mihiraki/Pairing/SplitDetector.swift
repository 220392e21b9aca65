import MihirakiCore

/// Two consecutive pages whose facing edges continue one artwork (SPEC §2,
/// "Automatic pairing"), as `--pairing auto` found it.
struct Split: Hashable, Sendable {
    /// The first page in reading order; the second is `first + 1`.
    var first: Int
    /// ``SeamScore`` of the pair, in thousandths.
    var score: Int
    /// How far it beat the best pairing either page has with any other page nearby, in thousandths.
    var margin: Int
    /// Whether a blank was inserted before `first` to keep the pair on one spread.
    var needsBlank = false

    var second: Int { first + 1 }
}

/// Finds splits in a book from its pages' edges: a pure function of the
/// edges, the direction and the pages that may take part.
///
/// A pair is a split when its seam scores at least ``threshold``, its levels
/// agree (``levelThreshold``), and it beats,
/// by at least ``requiredMargin``, the best seam either page makes with any
/// other page within ``window`` pages: a book in one style has many edges that
/// look alike, and only a pair that stands out from them is taken (Gallagher's
/// idea of judging a match against the piece's own alternatives). A false
/// split shifts every spread after it, so both bars favour precision.
enum SplitDetector {
    static let threshold = 400
    static let requiredMargin = 50
    static let window = 12
    /// The edges' levels must also agree (``SeamScore/levels(_:_:)``): two
    /// unrelated edges can share where their gradients fall, rarely their tones.
    static let levelThreshold = 300

    /// The splits of a book.
    /// - Parameters:
    ///   - edges: page `n`'s edges at index `n − 1`; nil where a page abstains.
    ///   - eligible: whether page `n` may be part of a split (not wide, not solo).
    static func detect(_ edges: [PageEdges?], direction: ReadingDirection, eligible: (Int) -> Bool) -> [Split] {
        let count = edges.count
        // The edge a page shows its successor, and the one it shows its predecessor.
        let outgoingLevels = edges.map { $0.map { direction == .ltr ? $0.right : $0.left } }
        let incomingLevels = edges.map { $0.map { direction == .ltr ? $0.left : $0.right } }
        let outgoing = edges.map { $0.map { SeamScore.gradient(direction == .ltr ? $0.right : $0.left) } }
        let incoming = edges.map { $0.map { SeamScore.gradient(direction == .ltr ? $0.left : $0.right) } }
        func usable(_ page: Int) -> Bool { page >= 1 && page <= count && edges[page - 1] != nil && eligible(page) }
        func seam(_ from: Int, _ to: Int) -> Int? {
            guard let a = outgoing[from - 1], let b = incoming[to - 1] else { return nil }
            return SeamScore.score(a, b)
        }

        var candidates: [Split] = []
        for first in stride(from: 1, to: count, by: 1) where usable(first) && usable(first + 1) {
            guard let score = seam(first, first + 1), score >= threshold else { continue }
            guard let out = outgoingLevels[first - 1], let into = incomingLevels[first],
                  let level = SeamScore.levels(out, into), level >= levelThreshold else { continue }
            var rival = Int.min
            let nearby = max(1, first - window)...min(count, first + 1 + window)
            for other in nearby where other != first && other != first + 1 && usable(other) {
                if let s = seam(first, other) { rival = max(rival, s) }
                if let s = seam(other, first + 1) { rival = max(rival, s) }
            }
            let margin = rival == Int.min ? score : score - rival
            if margin >= requiredMargin { candidates.append(Split(first: first, score: score, margin: margin)) }
        }
        // Overlapping candidates (7+8 and 8+9): the stronger one, the earlier on a tie.
        var taken = Set<Int>(), splits: [Split] = []
        for split in candidates.sorted(by: { ($0.score, -$0.first) > ($1.score, -$1.first) })
        where !taken.contains(split.first) && !taken.contains(split.second) {
            taken.formUnion([split.first, split.second])
            splits.append(split)
        }
        return splits.sorted { $0.first < $1.first }
    }
}
