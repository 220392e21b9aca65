import MihirakiRaster
import MihirakiCore
import MihirakiCodecs
/// How well two facing edges continue one artwork: the normalised
/// cross-correlation of their vertical gradients, block by block.
///
/// Each edge profile (``PageEdges``) is differentiated along y and smoothed;
/// gain, offset, gamma and a gutter shadow (a slow ramp) mostly drop out, and
/// screentone's dots are averaged away by the reduced scale. The height is
/// cut into ``blocks`` blocks, each allowed its own vertical shift of up to
/// ``maxShift`` bands (a shift or a scale difference between two scans).
/// A block flat on both sides carries nothing and is left out; a block flat on
/// one side only is evidence against (0). Blocks are correlated on the square
/// roots of the gradients (sign kept, ``Detail``): a few strong edges at the
/// same heights, the panel borders two pages of one layout share, then weigh
/// no more than the many weaker details between them, which continue only
/// where the artwork does. The score is the mean of the blocks
/// left after dropping the worst quarter; with fewer than ``minimumBlocks``
/// informative blocks there is nothing to judge and the answer is nil.
///
/// A scan's shift, scale and skew move every block of an edge together: the
/// shifts of one artwork's blocks lie near one line down the height. Each
/// block free to take its own best shift lets two unrelated edges find some
/// match in every block, which is the floor pages that are not one artwork
/// stand on. Held `together`, the blocks' shifts follow one line (its middle
/// within ``maxShift``, its ends ``togetherTilt`` either way, each block within
/// ``togetherSlack`` of it), the best line is taken, and ``togetherCredit`` is
/// added back. The detector holds colour pages' fine scale together; a gray
/// page's steep speed lines, crossing the lost columns at the spine, land
/// each block at a height of its own (docs/pairing.md, "Blocks held together").
///
/// Scalar on purpose: a few thousand multiplications per pair. The sums run
/// in a fixed order, so the score is the same on every run.
package enum SeamScore {

    /// A gradient as ``score(_:_:maxShift:)`` reads it: as it is, to tell a
    /// flat block, and compressed to `sign(g) × √(256 |g|)` (exact integer
    /// square roots), to correlate.
    package struct Detail: Sendable {
        package var gradient: [Int32]
        package var compressed: [Int32]

        package init(_ gradient: [Int32]) {
            self.gradient = gradient
            compressed = gradient.map { g in
                let root = Int32(squareRoot(256 * Int64(g.magnitude)))
                return g < 0 ? -root : root
            }
        }
    }

    /// ⌊√x⌋, exact for every x ≥ 0 this file passes (under 2⁵²).
    package static func squareRoot(_ x: Int64) -> Int64 {
        var root = Int64(Double(x).squareRoot())
        while root * root > x { root -= 1 }
        while (root + 1) * (root + 1) <= x { root += 1 }
        return root
    }

    /// The vertical gradient of a profile, smoothed: `p[y+step] − p[y−step]`,
    /// then a box of `2 × smoothing + 1` bands.
    package static func gradient(_ profile: [Int32], step: Int = 2) -> [Int32] {
        let n = profile.count
        guard n > 2 * step + 2 else { return [] }
        var raw = [Int32](repeating: 0, count: n)
        for y in step..<(n - step) { raw[y] = profile[y + step] - profile[y - step] }
        var smooth = [Int32](repeating: 0, count: n)
        let r = smoothing
        for y in r..<(n - r) {
            var sum: Int32 = 0
            for k in -r...r { sum += raw[y + k] }
            smooth[y] = sum
        }
        return smooth
    }

    /// One edge profile as the detector compares it: its gradient at the
    /// fine scale and at the coarse scale (``coarse(_:)``, gradient at a step
    /// of ``coarseRadius``), and the ``ranks(_:)`` of its coarse profile for
    /// ``levels(_:_:)``, and whether that profile has a shape of its own.
    package struct Edge: Sendable {
        package var fine: Detail
        package var coarse: Detail
        package var ranks: [Int32]
        /// Whether the coarse profile strays from its least-squares straight
        /// line by ``shapeSpan`` or more (``shaped(_:)``): a band, a stripe's
        /// rise and fall, a line across white paper. A flat edge, or a plain
        /// ramp (a gradient fill, a slow change of a scanner's lamp), has none.
        package var shaped: Bool

        package init(_ profile: [Int32]) {
            let smoothed = SeamScore.coarse(profile)
            fine = Detail(gradient(profile))
            coarse = Detail(gradient(smoothed, step: coarseRadius))
            ranks = SeamScore.ranks(smoothed)
            shaped = SeamScore.shaped(smoothed)
        }
    }

    /// Whether a profile at the coarse scale, less the bands within two
    /// ``coarseRadius`` of either end (which ``coarse(_:)`` leaves as they
    /// are), strays from its least-squares straight line by at least
    /// ``shapeSpan`` between its highest and lowest residual. Exact: the
    /// line is kept in integers scaled by the bands' spread of positions.
    package static func shaped(_ coarse: [Int32]) -> Bool {
        let end = 2 * coarseRadius
        guard coarse.count > 2 * end + 2 else { return false }
        let range = end..<(coarse.count - end)
        let n = Int64(range.count)
        var sumY: Int64 = 0, sumXY: Int64 = 0, sumX: Int64 = 0, sumXX: Int64 = 0
        for y in range {
            let x = Int64(y - end), v = Int64(coarse[y])
            sumX += x; sumXX += x * x; sumY += v; sumXY += x * v
        }
        // The line is (slope × x + intercept) / spread, with spread = n Σx² − (Σx)².
        let spread = n * sumXX - sumX * sumX
        let slope = n * sumXY - sumX * sumY, intercept = sumY * sumXX - sumX * sumXY
        var low = Int64.max, high = Int64.min
        for y in range {
            let x = Int64(y - end)
            let residual = Int64(coarse[y]) * spread - (slope * x + intercept)
            low = min(low, residual)
            high = max(high, residual)
        }
        return high - low >= shapeSpan * spread
    }

    /// The profile at the coarse scale: averaged over ``coarseRadius`` bands
    /// either side, twice (a triangle 17 bands wide, about 1/30 of the page's
    /// height, over which screentone's dots and lines and the moiré of their
    /// rescanning average out, and a line that crosses the spine steeply
    /// lands within reach on both sides).
    package static func coarse(_ profile: [Int32]) -> [Int32] {
        boxMean(boxMean(profile, coarseRadius), coarseRadius)
    }

    /// Each band's rank among the profile's bands, lowest first, twice over
    /// so that tied bands share their mean rank exactly. ``levels(_:_:)``
    /// compares the ranks of the profiles at the coarse scale: the order of
    /// the tones along the edge, which gain, offset and gamma keep and the
    /// moiré of screentone does not move, each band weighing the same
    /// whether it lies on a panel border or inside a panel.
    package static func ranks(_ profile: [Int32]) -> [Int32] {
        let order = profile.indices.sorted { (profile[$0], $0) < (profile[$1], $1) }
        var ranks = [Int32](repeating: 0, count: profile.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && profile[order[end + 1]] == profile[order[start]] { end += 1 }
            for k in start...end { ranks[order[k]] = Int32(start + end) }
            start = end + 1
        }
        return ranks
    }

    /// The mean of the `2 × radius + 1` bands around each band, rounded
    /// down; the bands within `radius` of an end are kept as they are.
    private static func boxMean(_ profile: [Int32], _ radius: Int) -> [Int32] {
        let n = profile.count
        guard n > 2 * radius else { return profile }
        var out = profile
        var sum: Int64 = 0
        for y in 0...(2 * radius) { sum += Int64(profile[y]) }
        let width = Int64(2 * radius + 1)
        for y in radius..<(n - radius) {
            if y > radius { sum += Int64(profile[y + radius]) - Int64(profile[y - radius - 1]) }
            out[y] = Int32((sum >= 0 ? sum : sum - width + 1) / width)
        }
        return out
    }

    /// How well the levels of two edge profiles agree once gain and offset
    /// are taken out: their correlation over the whole height (zero mean),
    /// at the best shift, in thousandths; nil for a flat profile. The
    /// detector passes the ``ranks(_:)`` of the profiles at the coarse scale.
    package static func levels(_ a: [Int32], _ b: [Int32]) -> Int? {
        let n = min(a.count, b.count)
        guard n > 4 * maxShift else { return nil }
        let range = maxShift..<(n - maxShift)
        let centredA = centred(a, range)
        guard centredA.energy > 0 else { return nil }
        return (-maxShift...maxShift).compactMap { correlation(a, centredA, b, range, shift: $0) }.max()
    }

    /// The score of edge `a` meeting edge `b` (the ``Detail`` of gradients from
    /// ``gradient(_:step:)`` at either scale of an ``Edge``, blocks shifted by up to `maxShift` bands,
    /// each on its own or, with `together`, along one line), in thousandths (−1000…1000), or nil when
    /// too little of either edge is drawn.
    package static func score(_ a: Detail, _ b: Detail, maxShift: Int = maxShift, together: Bool = false) -> Int? {
        let n = min(a.gradient.count, b.gradient.count)
        guard n > 2 * maxShift + blocks else { return nil }
        let margin = maxShift + 3
        let span = (n - 2 * margin) / blocks
        let flat = flatEnergy * Int64(span) * Int64(span)
        // Each informative block with its correlation at every shift, or nil where it is flat on one side (it counts 0).
        var rows: [(block: Int, shifts: [Int]?)] = []
        for block in 0..<blocks {
            let range = (margin + block * span)..<(margin + (block + 1) * span)
            // Each block is taken about its own mean: a smooth ramp (a
            // vignette, a gradient fill) carries no detail to match.
            let flatA = centred(a.gradient, range).energy < flat, flatB = centred(b.gradient, range).energy < flat
            if flatA && flatB { continue }
            if flatA || flatB {
                rows.append((block, nil))
                continue
            }
            let centredA = centred(a.compressed, range)
            rows.append((block, (-maxShift...maxShift).map {
                correlation(a.compressed, centredA, b.compressed, range, shift: $0) ?? -1000
            }))
        }
        guard rows.count >= minimumBlocks else { return nil }
        func kept(_ results: [Int]) -> Int {
            let kept = results.sorted(by: >).prefix(results.count - results.count / 4)
            return kept.reduce(0, +) / kept.count
        }
        guard together else { return kept(rows.map { $0.shifts?.max() ?? 0 }) }
        // The blocks held to one line of shifts: `centre` at the middle of the height, `tilt` more or less at either end.
        var best = Int.min
        for centre in -maxShift...maxShift {
            for tilt in -togetherTilt...togetherTilt {
                let results = rows.map { row -> Int in
                    guard let shifts = row.shifts else { return 0 }
                    let line = centre + roundedQuotient(tilt * (2 * row.block - (blocks - 1)), blocks - 1)
                    let lo = max(-maxShift, line - togetherSlack), hi = min(maxShift, line + togetherSlack)
                    return lo > hi ? -1000 : shifts[(lo + maxShift)...(hi + maxShift)].max() ?? -1000
                }
                best = max(best, kept(results))
            }
        }
        return min(1000, best + togetherCredit)
    }

    /// a / b rounded to the nearest integer, halves away from zero (b > 0).
    package static func roundedQuotient(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? (2 * a + b) / (2 * b) : -((-2 * a + b) / (2 * b))
    }

    /// The sum of `values` over `range`, and `range.count ×` their sum of
    /// squares about the mean (exact integers).
    private static func centred(_ values: [Int32], _ range: Range<Int>, shift: Int = 0) -> (sum: Int64, energy: Int64) {
        var sum: Int64 = 0, squares: Int64 = 0
        for y in range {
            let value = Int64(values[y + shift])
            sum += value
            squares += value * value
        }
        return (sum, Int64(range.count) * squares - sum * sum)
    }

    /// The correlation of `a[y]` with `b[y + shift]` over `range`, each about
    /// its own mean, in thousandths; nil when `b` is constant there.
    /// `centredA` is ``centred(_:_:shift:)`` of `a` over `range`.
    private static func correlation(_ a: [Int32], _ centredA: (sum: Int64, energy: Int64), _ b: [Int32],
                                    _ range: Range<Int>, shift: Int) -> Int? {
        let centredB = centred(b, range, shift: shift)
        guard centredB.energy > 0 else { return nil }
        var cross: Int64 = 0
        for y in range { cross += Int64(a[y]) * Int64(b[y + shift]) }
        let covariance = Double(Int64(range.count) * cross - centredA.sum * centredB.sum)
        let ncc = covariance / (Double(centredA.energy).squareRoot() * Double(centredB.energy).squareRoot())
        return Int((ncc * 1000).rounded())
    }
}
