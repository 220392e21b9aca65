import MihirakiCore

/// Finds splits in a book from its pages' edges: a pure function of the
/// edges, the direction, the threshold and the pages that may take part.
///
/// Each seam (two consecutive pages that may form a split) is judged by two
/// measures of its facing edges: ``SeamScore/score(_:_:maxShift:)``, whether
/// their details fall at the same heights (the better of the fine scale and
/// ``SeamScore/coarseGradient(_:)``'s), and ``SeamScore/levels(_:_:)``,
/// whether their tones follow each other; the seam's strength is their mean. A book
/// in one style has many edges that look alike, so the seam is also held
/// against the best strength either page reaches with any other page within
/// ``window`` pages (Gallagher's idea of judging a match against the piece's
/// own alternatives): its confidence is its strength, less whatever it falls
/// short of beating them by ``requiredMargin``. A seam is a split when its
/// confidence reaches the threshold (`--pairing-threshold`, default
/// ``defaultThreshold``). A false split shifts every spread after it, so the
/// default favours precision (docs/pairing.md gives the measurements).
enum SplitDetector {
    /// The default of `--pairing-threshold`, in thousandths.
    static let defaultThreshold = 740
    static let requiredMargin = 50
    static let window = 12

    /// Every seam of a book that could be judged, in reading order, with its
    /// confidence, and `isSplit` set on those taken.
    /// - Parameters:
    ///   - edges: page `n`'s edges at index `n − 1`; nil where a page abstains.
    ///   - threshold: the confidence a split needs, in thousandths.
    ///   - eligible: whether page `n` may be part of a split (not wide, not solo).
    static func detect(_ edges: [PageEdges?], direction: ReadingDirection, threshold: Int = defaultThreshold,
                       eligible: (Int) -> Bool) -> [Seam] {
        let count = edges.count
        // The edge a page shows its successor, and the one it shows its predecessor.
        let outgoingLevels = edges.map { $0.map { direction == .ltr ? $0.right : $0.left } }
        let incomingLevels = edges.map { $0.map { direction == .ltr ? $0.left : $0.right } }
        let outgoing = outgoingLevels.map { $0.map { SeamScore.gradient($0) } }
        let incoming = incomingLevels.map { $0.map { SeamScore.gradient($0) } }
        let outgoingCoarse = outgoingLevels.map { $0.map(SeamScore.coarseGradient) }
        let incomingCoarse = incomingLevels.map { $0.map(SeamScore.coarseGradient) }
        func usable(_ page: Int) -> Bool { page >= 1 && page <= count && edges[page - 1] != nil && eligible(page) }
        var measured: [Int: (score: Int, levels: Int)?] = [:]
        /// The two measures of page `from`'s outgoing edge against page `to`'s incoming edge.
        func measures(_ from: Int, _ to: Int) -> (score: Int, levels: Int)? {
            let key = from * (count + 1) + to
            if let known = measured[key] { return known }
            var result: (score: Int, levels: Int)?
            if let a = outgoing[from - 1], let b = incoming[to - 1], let fine = SeamScore.score(a, b),
               let out = outgoingLevels[from - 1], let into = incomingLevels[to - 1],
               let coarseA = outgoingCoarse[from - 1], let coarseB = incomingCoarse[to - 1] {
                // The better of the two scales: fine detail, or structure the coarse scale keeps through screentone and steep lines.
                let coarse = SeamScore.score(coarseA, coarseB, maxShift: SeamScore.coarseRadius) ?? fine
                result = (max(fine, coarse), SeamScore.levels(out, into) ?? -1000)
            }
            measured[key] = result
            return result
        }
        func strength(_ m: (score: Int, levels: Int)) -> Int { (m.score + m.levels) / 2 }

        var seams: [Seam] = []
        for first in stride(from: 1, to: count, by: 1) where usable(first) && usable(first + 1) {
            guard let seam = measures(first, first + 1) else { continue }
            var rival = Int.min
            let nearby = max(1, first - window)...min(count, first + 1 + window)
            for other in nearby where other != first && other != first + 1 && usable(other) {
                if let m = measures(first, other) { rival = max(rival, strength(m)) }
                if let m = measures(other, first + 1) { rival = max(rival, strength(m)) }
            }
            let own = strength(seam)
            let margin = rival == Int.min ? own : own - rival
            let confidence = min(1000, max(0, own - max(0, requiredMargin - margin)))
            seams.append(Seam(first: first, confidence: confidence, score: seam.score, levels: seam.levels, margin: margin))
        }
        // Overlapping seams over the threshold (7+8 and 8+9): the surer one, the earlier on a tie.
        var taken = Set<Int>()
        for index in seams.indices.sorted(by: { (seams[$0].confidence, -$0) > (seams[$1].confidence, -$1) })
        where seams[index].confidence >= threshold
            && !taken.contains(seams[index].first) && !taken.contains(seams[index].second) {
            taken.formUnion([seams[index].first, seams[index].second])
            seams[index].isSplit = true
        }
        return seams
    }
}
