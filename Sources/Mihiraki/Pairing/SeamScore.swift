/// How well two facing edges continue one artwork: the normalised
/// cross-correlation of their vertical gradients, block by block.
///
/// Each edge profile (``PageEdges``) is differentiated along y and smoothed;
/// gain, offset, gamma and a gutter shadow (a slow ramp) mostly drop out, and
/// screentone's dots are averaged away by the reduced scale. The height is
/// cut into ``blocks`` blocks, each allowed its own vertical shift of up to
/// ``maxShift`` bands (a shift or a scale difference between two scans).
/// A block flat on both sides carries nothing and is left out; a block flat on
/// one side only is evidence against (0). The score is the mean of the blocks
/// left after dropping the worst quarter; with fewer than ``minimumBlocks``
/// informative blocks there is nothing to judge and the answer is nil.
///
/// Scalar on purpose: a few thousand multiplications per pair. The sums run
/// in a fixed order, so the score is the same on every run.
enum SeamScore {
    static let blocks = 12
    static let maxShift = 6
    static let minimumBlocks = 3
    /// Half-width of the box that smooths the gradient.
    static let smoothing = 1
    /// Mean squared gradient (in (1/16 level)² units) below which a block is flat:
    /// an RMS step of about 1.5 gray levels per band.
    static let flatEnergy: Int64 = 576

    /// The vertical gradient of a profile, smoothed: `p[y+2] − p[y−2]`, then a box of `2 × smoothing + 1` bands.
    static func gradient(_ profile: [Int32]) -> [Int32] {
        let n = profile.count
        guard n > 6 else { return [] }
        var raw = [Int32](repeating: 0, count: n)
        for y in 2..<(n - 2) { raw[y] = profile[y + 2] - profile[y - 2] }
        var smooth = [Int32](repeating: 0, count: n)
        let r = smoothing
        for y in r..<(n - r) {
            var sum: Int32 = 0
            for k in -r...r { sum += raw[y + k] }
            smooth[y] = sum
        }
        return smooth
    }

    /// How well the levels of two edge profiles agree once gain and offset
    /// are taken out: their correlation over the whole height (zero mean),
    /// at the best shift, in thousandths; nil for a flat profile.
    static func levels(_ a: [Int32], _ b: [Int32]) -> Int? {
        let n = min(a.count, b.count)
        guard n > 4 * maxShift else { return nil }
        var best: Int?
        for shift in -maxShift...maxShift {
            let start = maxShift, end = n - maxShift
            var sumA: Int64 = 0, sumB: Int64 = 0
            for y in start..<end { sumA += Int64(a[y]); sumB += Int64(b[y + shift]) }
            let count = Int64(end - start)
            var cross = 0.0, energyA = 0.0, energyB = 0.0
            for y in start..<end {
                let da = Double(Int64(a[y]) * count - sumA), db = Double(Int64(b[y + shift]) * count - sumB)
                cross += da * db
                energyA += da * da
                energyB += db * db
            }
            guard energyA > 0, energyB > 0 else { continue }
            let r = Int((cross / (energyA.squareRoot() * energyB.squareRoot()) * 1000).rounded())
            best = max(best ?? r, r)
        }
        return best
    }

    /// The score of edge `a` meeting edge `b` (gradients from ``gradient(_:)``),
    /// in thousandths (−1000…1000), or nil when too little of either edge is drawn.
    static func score(_ a: [Int32], _ b: [Int32]) -> Int? {
        let n = min(a.count, b.count)
        guard n > 2 * maxShift + blocks else { return nil }
        let margin = maxShift + 3
        let span = (n - 2 * margin) / blocks
        let length = Int64(span)
        /// `length ×` the sum of squares about the mean (`length²` times the centred energy).
        func centred(_ sum: Int64, _ squares: Int64) -> Int64 { length * squares - sum * sum }
        var results: [Int] = []
        for block in 0..<blocks {
            let start = margin + block * span, end = start + span
            // Each block is taken about its own mean: a smooth ramp (a
            // vignette, a gradient fill) carries no detail to match.
            var sumA: Int64 = 0, squaresA: Int64 = 0, sumB: Int64 = 0, squaresB: Int64 = 0
            for y in start..<end {
                sumA += Int64(a[y]); squaresA += Int64(a[y]) * Int64(a[y])
                sumB += Int64(b[y]); squaresB += Int64(b[y]) * Int64(b[y])
            }
            let energyA = centred(sumA, squaresA)
            let flatA = energyA < flatEnergy * length * length
            let flatB = centred(sumB, squaresB) < flatEnergy * length * length
            if flatA && flatB { continue }
            if flatA || flatB {
                results.append(0)
                continue
            }
            var best = -1000
            for shift in -maxShift...maxShift {
                var cross: Int64 = 0, sumShifted: Int64 = 0, squaresShifted: Int64 = 0
                for y in start..<end {
                    let other = Int64(b[y + shift])
                    cross += Int64(a[y]) * other
                    sumShifted += other
                    squaresShifted += other * other
                }
                let energyShifted = centred(sumShifted, squaresShifted)
                guard energyShifted > 0 else { continue }
                let covariance = Double(length * cross - sumA * sumShifted)
                let ncc = covariance / (Double(energyA).squareRoot() * Double(energyShifted).squareRoot())
                best = max(best, Int((ncc * 1000).rounded()))
            }
            results.append(best)
        }
        guard results.count >= minimumBlocks else { return nil }
        let kept = results.sorted(by: >).prefix(results.count - results.count / 4)
        return kept.reduce(0, +) / kept.count
    }
}
