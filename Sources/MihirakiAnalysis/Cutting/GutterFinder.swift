import MihirakiCore
import MihirakiCodecs
import MihirakiRaster

/// Finds the fold of a wide page (SPEC §3b, `--split-wide auto`) within the
/// middle fifth of its width. A mark runs the whole height: a gutter
/// shadow (a smooth valley of the paper's brightness, darkest at the fold)
/// or a step in paper tone or brightness between two flat sides (two pages
/// scanned apart and joined). Both are read from the paper's level, which
/// ink does not lower, with dark lines narrower than 2 % of the width closed
/// over, so a panel frame or a photo's border inside the artwork is not a
/// mark; and a mark must show at the same column in at least ``agreement``
/// of 16 bands of rows. In a rotated scan
/// the bands' positions lie on a slanted line, and the fold is where that
/// line crosses the middle row. Where nothing marks it, the fold is the
/// exact middle. Integer profiles; the same on every machine.
package enum GutterFinder {
    /// What was found, in the sample's pixels.
    package struct Fold: Equatable {
        /// The first column of the right half.
        package var x: Int
        /// Thousandths: the share of bands that agree on a mark, 500 for the middle.
        package var confidence: Int
        /// `gutter shadow`, `paper tone`, or `middle`.
        package var reason: String
    }

    package static let bands = 16
    /// Bands that must show a mark for it to count (of ``bands``).
    package static let agreement = 12
    /// The least depth of a shadow's valley, in 1/16 levels.
    package static let shadowDepth = 4 * 16
    /// The least step in paper tone, in 1/16 levels.
    package static let toneStep = 4 * 16
    /// How many times its profile's roughness a valley must be deep: on a
    /// page of noise every band has valleys ``shadowDepth`` deep anywhere,
    /// and twelve of them line up by chance; a shadow is deep for its paper.
    package static let shadowOverRoughness = 4

    package static func find(in image: PixelBuffer) -> Fold {
        let width = image.width, height = image.height
        let middle = Fold(x: width / 2, confidence: 500, reason: "middle")
        guard width >= 64, height >= bands * 2 else { return middle }
        let radius = max(2, width / 100)
        // The middle fifth, 40–60 % of the width, in whole columns inside it.
        let low = (width * 2 + 4) / 5, high = width * 3 / 5
        let first = max(1, low - 6 * radius), last = min(width - 1, high + 6 * radius)
        let profiles = Profiles(image, columns: first..<last, bands: bands)
        // A slanted fold's line may cross the middle row a little outside the fifth it was found in.
        let found = shadow(profiles, low: low, high: high, radius: radius, height: height)
            ?? step(profiles, low: low, high: high, radius: radius, height: height)
        guard var fold = found else { return middle }
        fold.x = min(max(fold.x, low), high)
        return fold
    }

    /// A valley of brightness in the paper's level (``Profiles/paper``, with
    /// thin dark lines such as frames closed over): of the valleys at least
    /// ``shadowDepth`` deep, the one the most bands show at the same column.
    private static func shadow(_ p: Profiles, low: Int, high: Int, radius: Int, height: Int) -> Fold? {
        // Lines up to 0.6 % of the width wide are closed over; a shadow is wider.
        let lines = max(2, p.width / 300)
        let paper = p.paper.map { p.closed($0, radius: lines) }
        let total = p.smoothed((0..<p.columns.count).map { i in paper.reduce(0) { $0 + $1[i] } / paper.count }, radius: 1)
        let tolerance = max(3, p.width / 100)
        // Roughness is read before closing, which flattens noise into plateaus.
        let raw = (0..<p.columns.count).map { i in p.paper.reduce(0) { $0 + $1[i] } / p.paper.count }
        let totalDepth = max(shadowDepth, shadowOverRoughness * p.roughness(raw))
        let bandDepths = p.paper.map { max(shadowDepth, shadowOverRoughness * p.roughness($0)) }
        var best: [(band: Int, x: Int)] = []
        for x in low..<high {
            // A candidate is the lowest point within twice the tolerance, so a dip on a valley's side is not one.
            let window = max(p.columns.lowerBound, x - 2 * tolerance)..<min(p.columns.upperBound, x + 2 * tolerance + 1)
            guard window.allSatisfy({ total[p.index($0)] >= total[p.index(x)] }),
                  let center = valley(total, p, in: x..<(x + 1), reach: 6 * radius, depth: totalDepth, strictMinimum: true)
            else { continue }
            var positions: [(band: Int, x: Int)] = []
            for band in 0..<bands {
                let around = max(p.columns.lowerBound + 1, center - tolerance)..<min(p.columns.upperBound - 1, center + tolerance + 1)
                // The band's own valley: its bottom inside the window, not on a slope that leaves it.
                guard let found = valley(paper[band], p, in: around, reach: 6 * radius, depth: bandDepths[band], strictMinimum: true),
                      abs(found - center) <= tolerance else { continue }
                // The bottom itself from the band's own level, lightly smoothed: closing would move an uneven valley's.
                let own = p.smoothed(p.paper[band], radius: 2)
                let near = max(p.columns.lowerBound, found - lines)..<min(p.columns.upperBound, found + lines + 1)
                positions.append((band, near.min { own[p.index($0)] < own[p.index($1)] }!))
            }
            if positions.count > best.count { best = positions }
        }
        return fold(best, height: height, reason: "gutter shadow")
    }

    /// The centre of the valley whose bottom lies in `range`, if both sides
    /// rise by `depth` within `reach`; with `strictMinimum`, only where the
    /// bottom (or its flat run) is lower than the columns on both sides.
    private static func valley(_ profile: [Int], _ p: Profiles, in range: Range<Int>, reach: Int, depth: Int = shadowDepth,
                               strictMinimum: Bool = false) -> Int? {
        guard !range.isEmpty else { return nil }
        var bottom = range.lowerBound
        for x in range where profile[p.index(x)] < profile[p.index(bottom)] { bottom = x }
        let floor = profile[p.index(bottom)]
        if strictMinimum {
            // A flat bottom counts once, from its left end: the levels on both sides of the run are higher.
            var end = bottom
            while end + 1 < p.columns.upperBound && profile[p.index(end + 1)] == floor { end += 1 }
            guard bottom > p.columns.lowerBound, end < p.columns.upperBound - 1,
                  profile[p.index(bottom - 1)] > floor, profile[p.index(end + 1)] > floor else { return nil }
        }
        let leftTop = (max(p.columns.lowerBound, bottom - reach)...bottom).map { profile[p.index($0)] }.max()!
        let rightTop = (bottom...min(p.columns.upperBound - 1, bottom + reach)).map { profile[p.index($0)] }.max()!
        let rise = min(leftTop, rightTop) - floor
        guard rise >= depth else { return nil }
        // The middle of the valley's lowest tenth, so noise at its bottom does not move it.
        let ceiling = floor + rise / 10
        var left = bottom, right = bottom
        while left > p.columns.lowerBound && profile[p.index(left - 1)] <= ceiling { left -= 1 }
        while right < p.columns.upperBound - 1 && profile[p.index(right + 1)] <= ceiling { right += 1 }
        return (left + right + 1) / 2
    }

    /// A step in paper tone: flat on both sides, the mean differing by ``toneStep``.
    private static func step(_ p: Profiles, low: Int, high: Int, radius: Int, height: Int) -> Fold? {
        let paper = p.paper.map { p.closed($0, radius: radius) }
        let total = (0..<p.columns.count).map { i in paper.reduce(0) { $0 + $1[i] } / paper.count }
        let tolerance = max(3, p.width / 100)
        var best: [(band: Int, x: Int)] = []
        for center in low..<high {
            // Each column where the whole page's paper steps, judged by how many bands step there too.
            guard let (x, sign) = strongestStep(total, p, in: center..<(center + 1), radius: radius, least: toneStep),
                  p.isFlat(total, around: x, radius: radius) else { continue }
            var positions: [(band: Int, x: Int)] = []
            for band in 0..<bands {
                let around = (center - tolerance)..<(center + tolerance + 1)
                if let (bx, bandSign) = strongestStep(paper[band], p, in: around, radius: radius, least: toneStep / 2),
                   bandSign == sign, p.isFlat(paper[band], around: bx, radius: radius) {
                    positions.append((band, bx))
                }
            }
            if positions.count > best.count { best = positions }
        }
        let positions = best
        return fold(positions, height: height, reason: "paper tone")
    }

    /// The column where the mean of the `radius` columns after it differs most from the mean of those before it.
    private static func strongestStep(_ profile: [Int], _ p: Profiles, in range: Range<Int>, radius: Int,
                                      least: Int) -> (x: Int, sign: Int)? {
        var best: (x: Int, size: Int)?
        for x in range where x - radius >= p.columns.lowerBound && x + radius <= p.columns.upperBound {
            var before = 0, after = 0
            for d in 0..<radius {
                before += profile[p.index(x - 1 - d)]
                after += profile[p.index(x + d)]
            }
            let size = (after - before) / radius
            if abs(size) >= least && abs(size) > abs(best?.size ?? 0) { best = (x, size) }
        }
        return best.map { ($0.x, $0.size > 0 ? 1 : -1) }
    }

    /// The fold from the bands' positions: the line through them at the middle row, when enough agree.
    private static func fold(_ positions: [(band: Int, x: Int)], height: Int, reason: String) -> Fold? {
        guard positions.count >= agreement else { return nil }
        // Least squares x = a + b·band, evaluated at the middle band (bands - 1) / 2.
        let n = Double(positions.count)
        let meanBand = positions.reduce(0.0) { $0 + Double($1.band) } / n
        let meanX = positions.reduce(0.0) { $0 + Double($1.x) } / n
        var covariance = 0.0, variance = 0.0
        for position in positions {
            covariance += (Double(position.band) - meanBand) * (Double(position.x) - meanX)
            variance += (Double(position.band) - meanBand) * (Double(position.band) - meanBand)
        }
        let slope = variance > 0 ? covariance / variance : 0
        let x = meanX + slope * (Double(bands - 1) / 2 - meanBand)
        return Fold(x: Int((x + 0.5).rounded(.down)), confidence: positions.count * 1000 / bands, reason: reason)
    }

    /// The paper's level in each band of rows: per column, the 75th
    /// percentile of its gray levels, in 1/16 levels. Ink lowers a column's
    /// mean but not this; a shadow or a change of paper lowers both.
    package struct Profiles {
        package let columns: Range<Int>
        /// `paper[b][i]`: band `b`'s level at column `columns.lowerBound + i`.
        package var paper: [[Int]]

        /// Rows read per band at most: enough for a percentile, and a tall page costs no more.
        package static let rowsPerBand = 48

        package init(_ image: PixelBuffer, columns: Range<Int>, bands: Int) {
            self.columns = columns
            width = image.width
            let count = columns.count, channels = image.channels, rowBytes = image.rowBytes
            var paper: [[Int]] = []
            var values = [UInt8](repeating: 0, count: Self.rowsPerBand * count)
            image.pixels.withUnsafeBufferPointer { pixels in
                for band in 0..<bands {
                    let top = band * image.height / bands, bottom = (band + 1) * image.height / bands
                    let step = max(1, (bottom - top + Self.rowsPerBand - 1) / Self.rowsPerBand)
                    let rows = Array(stride(from: top, to: bottom, by: step))
                    // Column by column: each column's gray levels side by side, then its 75th percentile.
                    for (r, y) in rows.enumerated() {
                        for i in 0..<count {
                            let base = y * rowBytes + (columns.lowerBound + i) * channels
                            var gray = channels < 3 ? Int(pixels[base]) * 256
                                : 77 * Int(pixels[base]) + 150 * Int(pixels[base + 1]) + 29 * Int(pixels[base + 2])
                            // Only what shows: a see-through pixel is read over white paper, so
                            // what lies hidden under alpha never marks a fold.
                            if channels == 2 || channels == 4 {
                                let alpha = Int(pixels[base + channels - 1])
                                gray = (gray * alpha + 255 * 256 * (255 - alpha)) / 255
                            }
                            values[i * Self.rowsPerBand + r] = UInt8(gray >> 8)
                        }
                    }
                    paper.append((0..<count).map { i in
                        guard !rows.isEmpty else { return 0 }
                        let column = values[(i * Self.rowsPerBand)..<(i * Self.rowsPerBand + rows.count)].sorted()
                        return Int(column[column.count * 3 / 4]) * 16
                    })
                }
            }
            self.paper = paper
        }

        package func index(_ x: Int) -> Int { x - columns.lowerBound }

        /// The page's width.
        package let width: Int

        /// `profile` with every dip narrower than `2·radius + 1` columns filled:
        /// the largest value within `radius`, then the smallest of those.
        package func closed(_ profile: [Int], radius: Int) -> [Int] {
            func slide(_ values: [Int], _ pick: (Int, Int) -> Int) -> [Int] {
                (0..<values.count).map { i in
                    values[max(0, i - radius)..<min(values.count, i + radius + 1)].reduce(values[i], pick)
                }
            }
            return slide(slide(profile, max), min)
        }

        /// How much `profile` moves from one column to the next, typically:
        /// the median of its neighbours' differences. A page's paper and a
        /// smooth shadow move by a level or less; noise, by tens.
        package func roughness(_ profile: [Int]) -> Int {
            guard profile.count > 1 else { return 0 }
            let steps = (1..<profile.count).map { abs(profile[$0] - profile[$0 - 1]) }.sorted()
            return steps[steps.count / 2]
        }

        /// A box mean of `profile` of `2·radius + 1` columns (fewer at the ends).
        package func smoothed(_ profile: [Int], radius: Int) -> [Int] {
            var prefix = [0]
            for value in profile { prefix.append(prefix.last! + value) }
            return (0..<profile.count).map { i in
                let a = max(0, i - radius), b = min(profile.count, i + radius + 1)
                return (prefix[b] - prefix[a]) / (b - a)
            }
        }

        /// Whether `profile` is flat on both sides of `x` (beyond the few
        /// columns JPEG rings over): within 6 levels on each side.
        package func isFlat(_ profile: [Int], around x: Int, radius: Int) -> Bool {
            let sides = [(x - 2 * radius)..<(x - 3), (x + 3)..<(x + 2 * radius)]
            return sides.allSatisfy { side in
                let inside = side.clamped(to: columns)
                guard !inside.isEmpty else { return false }
                let values = inside.map { profile[index($0)] }
                return values.max()! - values.min()! <= 6 * 16
            }
        }

    }
}
