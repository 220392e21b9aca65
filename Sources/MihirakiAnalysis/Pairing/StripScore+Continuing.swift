import MihirakiRaster
import MihirakiCore
import MihirakiCodecs

/// ``StripScore``: the share of the lines, borders and edges one page draws
/// at the spine that the other continues, across a lost strip.
extension StripScore {
    /// How much of two facing strips' ``lines(_:)`` continue across the
    /// spine, in thousandths, and their total line strength in units of the
    /// white (nil where neither has any), over the slopes from two tenths of
    /// a band a column to one step short of the steepest, either way. Page
    /// a's line at slope m is page b's at −m (each strip runs away from its
    /// edge); a line matches where the other page has one within
    /// ``lineReach`` bands and one slope step.
    ///
    /// Scans lose a few columns at the spine, and a line at slope m that
    /// left page a at height y enters page b at y + m·g bands once g columns
    /// are gone: steep lines land far from where they left, each by its own
    /// slope, so no shift of the whole edge brings them back. The share is
    /// the best over g = 0, ¼, ½, ¾ and all of `lost` columns (rounded
    /// down), the first best on a tie; the strength is the lines' at g = 0.
    /// Where that is ``lineStrength`` or under, the share (which then
    /// counts for nothing) is the one at g = 0.
    package static func linesContinue(_ a: [Int64], _ b: [Int64], lost: Int = 0) -> (share: Int, strength: Int)? {
        continuing([(a, b)], slopes: { (2..<(slopes / 2)).contains(abs($0)) }, lost: lost, counted: lineStrength)
    }

    /// The same share for the lines steeper than ``linesContinue(_:_:lost:)``
    /// follows, on two facing strips: 1.1 to 2.9 bands a column
    /// (``Fan/steep``), followed across the same lost columns, each by its own
    /// slope. Speed lines that cross the spine nearly along it continue
    /// there; a steep line's height at the spine moves with a scan's scale
    /// and lost columns more than a shallow one's, so those that seem not
    /// to continue say little (``steepLinesAdjustment(_:)``).
    package static func steepLinesContinue(_ a: Strip, _ b: Strip, lost: Int = 0) -> (share: Int, strength: Int)? {
        let fan = Fan.steep
        let (linesA, linesB) = (standingOut(response(a, fan: fan), fan: fan), standingOut(response(b, fan: fan), fan: fan))
        return continuing([(linesA, linesB)], fan: fan, slopes: { fan.computed.contains(abs($0)) }, lost: lost,
                          counted: lineStrength)
    }

    /// What steep lines that continue add to a seam, in thousandths: as
    /// lines that continue do over 0.4 (``adjustment(ink:lines:borders:edges:proportion:toneRange:)``),
    /// twice the share over 0.4; under it nothing. On the labelled sets'
    /// seeds 1, 2 and 4–32 the steep lines count (a strength over
    /// ``lineStrength``) at 387 splits, half of them with a share over 0.516,
    /// and at 704 pairs that are not one artwork, 6 of them over 0.4, the
    /// most 0.539 (docs/pairing.md, "Steep lines").
    package static func steepLinesAdjustment(_ share: Int?) -> Int {
        share.map { 2 * max(0, $0 - 400) } ?? 0
    }

    /// The same for the flat lines, within a tenth of a band a column of
    /// flat: panel borders, a horizon, a rule. Pages of one layout share
    /// them, so borders that continue say little; borders at other heights
    /// say the pages are not one artwork (``adjustment(ink:lines:borders:edges:proportion:toneRange:)``).
    package static func bordersContinue(_ a: [Int64], _ b: [Int64]) -> (share: Int, strength: Int)? {
        continuing([(a, b)], slopes: { abs($0) <= 1 }, lost: 0, counted: borderStrength)
    }

    /// How much of two facing strips' ``edges(response:)`` continue across
    /// the spine, as ``linesContinue(_:_:lost:)`` counts lines, over every
    /// slope but the two steepest: an edge turning lighter below on one page
    /// continues as one turning lighter below on the other (the gaps
    /// searched only where the strength is over ``edgeStrength``).
    package static func edgesContinue(_ a: (lighter: [Int64], darker: [Int64]), _ b: (lighter: [Int64], darker: [Int64]),
                              lost: Int = 0) -> (share: Int, strength: Int)? {
        continuing([(a.lighter, b.lighter), (a.darker, b.darker)], slopes: { abs($0) < slopes / 2 }, lost: lost,
                   counted: edgeStrength)
    }

    /// The share of the maps' strength (page a's and page b's, pair by pair)
    /// at the slope steps `slopes` keeps (−12…12, 0 flat) that the other
    /// page continues, the best over the gaps of
    /// ``linesContinue(_:_:lost:)``, and the strength at g = 0; where that
    /// strength is `counted` or under, the share at g = 0 alone.
    private static func continuing(_ maps: [([Int64], [Int64])], fan: Fan = .lines, slopes kept: (Int) -> Bool, lost: Int,
                                   counted: Int) -> (share: Int, strength: Int)? {
        let all = fan.count, centre = all / 2
        // The kept slopes side by side, one column of 0 between two that are not neighbours: a slope's
        // neighbours here are its neighbours in the fan where those are kept, and 0 where they are not,
        // as in the fan's own layout with the other slopes at 0, in fewer columns.
        var columns: [Int?] = []
        for s in 0..<all where kept(s - centre) {
            if let last = columns.last, last != s - 1 { columns.append(nil) }
            columns.append(s)
        }
        let slopes = columns.count
        // Page a's maps with their slopes mirrored, and each map's kept slopes, column by column.
        let pairs = maps.map { a, b in
            var mirrored = [Int64](repeating: 0, count: bands * slopes), own = mirrored
            for y in 0..<bands {
                for (c, s) in columns.enumerated() {
                    guard let s else { continue }
                    mirrored[y * slopes + c] = a[y * all + (all - 1 - s)]
                    own[y * slopes + c] = b[y * all + s]
                }
            }
            return (mirrored: mirrored, own: own)
        }
        /// The strongest line within lineReach bands and one slope step, on
        /// the kept slopes (0 between groups of them, so taking every
        /// neighbour column gives the same as the fan's neighbours).
        func spread(_ map: [Int64]) -> [Int64] {
            // Rows padded with lineReach rows of 0 either side (the maps are never under 0, so the
            // padding never wins): the best of a slope and its neighbours, row by row.
            let padded = bands + 2 * lineReach
            var across = [Int64](repeating: 0, count: padded * slopes)
            map.withUnsafeBufferPointer { map in
                across.withUnsafeMutableBufferPointer { across in
                    for y in 0..<bands {
                        let row = y * slopes, to = (y + lineReach) * slopes
                        for s in 0..<slopes {
                            var best = map[row + s]
                            if s > 0 && map[row + s - 1] > best { best = map[row + s - 1] }
                            if s + 1 < slopes && map[row + s + 1] > best { best = map[row + s + 1] }
                            across[to + s] = best
                        }
                    }
                }
            }
            // Output row y is padded rows y…y+6: bands y−3…y+3 (lineReach 3).
            return bestOfSeven(across, stride: slopes)
        }
        /// Page a's mirrored lines where they enter page b across `gap` lost
        /// columns: slope step k (tenths of a band a column) moves k·gap/10
        /// bands, rounded half away from zero; lines carried past an end are gone.
        func across(_ mirrored: [Int64], _ gap: Int) -> [Int64] {
            guard gap > 0 else { return mirrored }
            var moved = [Int64](repeating: 0, count: mirrored.count)
            for (c, s) in columns.enumerated() {
                guard let s else { continue }
                let product = (s - centre) * gap
                let offset = product >= 0 ? (product + 5) / 10 : -((-product + 5) / 10)
                for y in max(0, offset)..<min(bands, bands + offset) {
                    moved[y * slopes + c] = mirrored[(y - offset) * slopes + c]
                }
            }
            return moved
        }
        let nearB = pairs.map { spread($0.own) }
        var best: (matched: Int64, total: Int64)?
        var strength: Int64 = 0
        for step in 0...4 {
            let gap = lost * step / 4
            if step > 0 && gap == lost * (step - 1) / 4 { continue }
            var total: Int64 = 0, matched: Int64 = 0
            for (pair, nearB) in zip(pairs, nearB) {
                let entering = across(pair.mirrored, gap), nearA = spread(entering)
                // Every slope: the maps are 0 where a slope is not kept.
                entering.withUnsafeBufferPointer { entering in
                    pair.own.withUnsafeBufferPointer { own in
                        nearA.withUnsafeBufferPointer { nearA in
                            nearB.withUnsafeBufferPointer { nearB in
                                for i in 0..<own.count {
                                    total += entering[i] + own[i]
                                    let a = entering[i] < nearB[i] ? entering[i] : nearB[i]
                                    let b = own[i] < nearA[i] ? own[i] : nearA[i]
                                    matched += a + b
                                }
                            }
                        }
                    }
                }
            }
            if step == 0 { strength = total }
            // matched / total > best.matched / best.total, in exact integers.
            if total > 0, best.map({ matched * $0.total > $0.matched * total }) ?? true { best = (matched, total) }
            if strength / (unit * Int64(depth) * 10) <= Int64(counted) { break }
        }
        guard strength > 0, let best else { return nil }
        return (Int(best.matched * 1000 / best.total), Int(strength / (unit * Int64(depth) * 10)))
    }

}
