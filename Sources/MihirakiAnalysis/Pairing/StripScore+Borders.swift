import MihirakiRaster
import MihirakiCore
import MihirakiCodecs

/// ``StripScore``: runs of paper meeting solid flat lines, and how far apart the borders both
/// pages draw fall.
extension StripScore {
    /// Where a run of paper across a strip meets a solid flat line
    /// (``flatEdges(_:)``): whether the line is below the paper, and the
    /// height at which the columns turn from paper to ink, in 1/256 band.
    package struct FlatEdge: Equatable {
        package var inkBelow: Bool
        package var at: Int64
    }


    /// The flat edges of a strip's paper: the ends of every run of at least
    /// ``paperRun`` bands where all 24 columns are paper (a gutter between
    /// panel rows, a margin) at which every column turns to ink within
    /// ``edgeSearch`` bands, at heights on one straight line within 0.03 band
    /// a column of flat whose columns stray from it by 0.35 band or less
    /// (root mean square), with the band past it a solid line (over 0.6 of
    /// the white in 20 columns of the 24). Each column's height is where its
    /// darkness crosses half its white, between bands; the edge's is their mean.
    package static func flatEdges(_ strip: Strip) -> [FlatEdge] {
        let dark = strip.dark
        func at(_ y: Int, _ k: Int) -> Int64 { Int64(dark[k * bands + y]) }
        let paper = (0..<bands).map { y in (0..<depth).allSatisfy { at(y, $0) < paperDark } }
        /// The edge where the paper ending at band `last` turns to ink going `step` (±1), if it is one.
        func edge(last: Int, step: Int) -> Int64? {
            var heights: [Int64] = []
            for k in 0..<depth {
                var (previous, level) = (last, at(last, k))
                var crossed: Int64?
                for y in stride(from: last + step, through: last + edgeSearch * step, by: step) where y >= 0 && y < bands {
                    let value = at(y, k)
                    if value >= halfDark {
                        crossed = Int64(previous) * 256 + Int64(step) * (halfDark - level) * 256 / (value - level)
                        break
                    }
                    (previous, level) = (y, value)
                }
                guard let crossed else { return nil }
                heights.append(crossed)
            }
            // The least-squares line through (k, height): its slope is sloped / (2 · 1,150) in 1/256 band a column.
            let n = Int64(depth), sum = heights.reduce(0, +), squares = heights.reduce(0) { $0 + $1 * $1 }
            let sloped = heights.enumerated().reduce(Int64(0)) { $0 + Int64(2 * $1.offset - depth + 1) * $1.element }
            let spread = Int64(depth * depth * depth - depth) / 3  // Σ (2k − 23)², 4 · 1,150
            guard abs(sloped) * 100 <= 3 * 256 * spread / 2 else { return nil }
            // n² · (mean square about the line) = n · Σh² − (Σh)² − n · sloped² / spread, against n² · (0.35 · 256)².
            guard spread * (n * squares - sum * sum) - n * sloped * sloped <= spread * n * n * 8028 else { return nil }
            let middle = (sum / n + 128) >> 8, past = Int(middle) + step
            guard past >= 0 && past < bands, (0..<depth).filter({ at(past, $0) > solidDark }).count * 10 >= depth * 8
            else { return nil }
            return sum / n
        }
        var edges: [FlatEdge] = []
        var y = 0
        while y < bands {
            guard paper[y] else { y += 1; continue }
            var end = y
            while end < bands && paper[end] { end += 1 }
            if end - y >= paperRun {
                if y > 0, let height = edge(last: y, step: -1) { edges.append(FlatEdge(inkBelow: false, at: height)) }
                if end < bands, let height = edge(last: end - 1, step: 1) { edges.append(FlatEdge(inkBelow: true, at: height)) }
            }
            y = end
        }
        return edges
    }


    /// What a seam loses where its borders fall apart (``bordersApart(_:_:)``): ``bordersApartWeight``
    /// thousandths for each thousandth over ``bordersApartKnee``.
    package static func bordersApartPenalty(_ apart: Int?) -> Int {
        apart.map { max(0, $0 - bordersApartKnee) * bordersApartWeight / 1000 } ?? 0
    }

    /// How far the flat edges two facing strips share fall from one shift,
    /// in thousandths of a band: each of page a's ``flatEdges(_:)`` matched
    /// with the nearest unmatched edge of page b of the same kind within
    /// ``bordersReach`` bands, and the mean distance of their differences
    /// from the differences' median, each at most ``bordersMismatch``; nil under 3 matched. A scan moves all
    /// of one artwork's borders together, so where a panel row crosses the
    /// spine every gutter's edges differ by one shift; two pages of one
    /// layout draw each border on its own, a pixel or two apart
    /// (docs/pairing.md, "Borders held together").
    package static func bordersApart(_ a: Strip, _ b: Strip) -> Int? {
        let (edgesA, edgesB) = (flatEdges(a), flatEdges(b))
        var used = [Bool](repeating: false, count: edgesB.count), differences: [Int64] = []
        for edge in edgesA {
            var best: Int?
            for (j, other) in edgesB.enumerated() where !used[j] && other.inkBelow == edge.inkBelow
                && abs(other.at - edge.at) <= Int64(bordersReach * 256)
                && best.map({ abs(other.at - edge.at) < abs(edgesB[$0].at - edge.at) }) ?? true {
                best = j
            }
            if let best {
                used[best] = true
                differences.append(edgesB[best].at - edge.at)
            }
        }
        guard differences.count >= 3 else { return nil }
        let sorted = differences.sorted(), n = sorted.count
        // The median twice over, so that an even count's two middle values need no rounding.
        let median2 = n % 2 == 1 ? 2 * sorted[n / 2] : sorted[n / 2 - 1] + sorted[n / 2]
        // A difference over a band from the median is another edge matched (one the other page lacks), not a border
        // drawn apart: it counts a band.
        let distance = differences.reduce(Int64(0)) { $0 + min(abs(2 * $1 - median2), 2 * 256 * bordersMismatch) }
        return Int(distance * 1000 / (2 * 256 * Int64(n)))
    }
}
