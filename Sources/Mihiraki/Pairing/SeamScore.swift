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
    /// The coarse scale's half-width, in bands; its blocks shift by at most this much.
    static let coarseRadius = 4
    static let minimumBlocks = 3
    /// Half-width of the box that smooths the gradient.
    static let smoothing = 1
    /// Mean squared gradient (in (1/16 level)² units) below which a block is flat:
    /// an RMS step of about 1.5 gray levels per band.
    static let flatEnergy: Int64 = 576

    /// The vertical gradient of a profile, smoothed: `p[y+step] − p[y−step]`,
    /// then a box of `2 × smoothing + 1` bands.
    static func gradient(_ profile: [Int32], step: Int = 2) -> [Int32] {
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

    /// The gradient at the coarse scale: the profile averaged over
    /// ``coarseRadius`` bands either side, twice (a triangle 17 bands wide,
    /// about 1/30 of the page's height, over which screentone's dots and
    /// lines and the moiré of their rescanning average out, and a line that
    /// crosses the spine steeply lands within reach on both sides), then
    /// ``gradient(_:step:)`` at a step of ``coarseRadius``.
    static func coarseGradient(_ profile: [Int32]) -> [Int32] {
        gradient(boxMean(boxMean(profile, coarseRadius), coarseRadius), step: coarseRadius)
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
    /// at the best shift, in thousandths; nil for a flat profile.
    static func levels(_ a: [Int32], _ b: [Int32]) -> Int? {
        let n = min(a.count, b.count)
        guard n > 4 * maxShift else { return nil }
        let range = maxShift..<(n - maxShift)
        let centredA = centred(a, range)
        guard centredA.energy > 0 else { return nil }
        return (-maxShift...maxShift).compactMap { correlation(a, centredA, b, range, shift: $0) }.max()
    }

    /// The score of edge `a` meeting edge `b` (gradients from ``gradient(_:step:)``
    /// or ``coarseGradient(_:)``, blocks shifted by up to `maxShift` bands),
    /// in thousandths (−1000…1000), or nil when too little of either edge is drawn.
    static func score(_ a: [Int32], _ b: [Int32], maxShift: Int = maxShift) -> Int? {
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
