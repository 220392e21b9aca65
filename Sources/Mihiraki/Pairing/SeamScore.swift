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
        let range = maxShift..<(n - maxShift)
        let centredA = centred(a, range)
        guard centredA.energy > 0 else { return nil }
        return (-maxShift...maxShift).compactMap { correlation(a, centredA, b, range, shift: $0) }.max()
    }

    /// The score of edge `a` meeting edge `b` (gradients from ``gradient(_:)``),
    /// in thousandths (−1000…1000), or nil when too little of either edge is drawn.
    static func score(_ a: [Int32], _ b: [Int32]) -> Int? {
        let n = min(a.count, b.count)
        guard n > 2 * maxShift + blocks else { return nil }
        let margin = maxShift + 3
        let span = (n - 2 * margin) / blocks
        let flat = flatEnergy * Int64(span) * Int64(span)
        var results: [Int] = []
        for block in 0..<blocks {
            let range = (margin + block * span)..<(margin + (block + 1) * span)
            // Each block is taken about its own mean: a smooth ramp (a
            // vignette, a gradient fill) carries no detail to match.
            let centredA = centred(a, range)
            let flatA = centredA.energy < flat, flatB = centred(b, range).energy < flat
            if flatA && flatB { continue }
            if flatA || flatB {
                results.append(0)
                continue
            }
            results.append((-maxShift...maxShift).compactMap { correlation(a, centredA, b, range, shift: $0) }.max() ?? -1000)
        }
        guard results.count >= minimumBlocks else { return nil }
        let kept = results.sorted(by: >).prefix(results.count - results.count / 4)
        return kept.reduce(0, +) / kept.count
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
