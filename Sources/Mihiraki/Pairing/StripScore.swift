import MihirakiCodecs

/// Measures of two facing edges from their strips (``PageEdges/strips``:
/// luma's 24 columns next to each edge, each 1/1,280 of the page's height
/// wide, 512 bands), which see what a profile
/// averaged over the columns cannot: which way a line or an area's edge
/// runs, and whether white paper reaches across the strip.
///
/// - ``paperAgainstInk(_:_:)``: the share of bands where one page is paper
///   across its whole strip (a gutter, a margin, a white sky) and the other
///   is ink over its 12 columns next to the edge at every shift of up to
///   ``reach`` bands (a filled area that does not stop at the spine). Two
///   halves of one artwork meet paper with paper; pages with their own panel
///   rows meet a gutter with a panel. Each column is measured against its own
///   white, so a gutter shadow is not ink.
/// - ``lines(_:)`` and ``linesContinue(_:_:)``: on each strip, the dark
///   lines at 25 slopes that stand out from everything 4 to 10 bands above
///   and below (the parallel lines of a line tone, and a tone's dots, answer
///   there too and cancel), then the share of both pages' line strength the
///   other page has at the mirrored slope and the same height at the spine:
///   a speed line crossing the spine leaves one page where it enters the
///   other, at the same angle. Lines within a tenth of a band a column of
///   flat are left out (panel borders, which pages of one layout share), and
///   so are the two steepest slopes, where a line steeper than the range
///   answers too, smeared over the strip. Lines are followed across the
///   columns a scan may have lost at the spine, each by its own slope.
/// - ``steepLinesContinue(_:_:lost:)``: the same share for the lines steeper
///   than that, along a fan of slopes of their own (``Fan/steep``): speed
///   lines crossing the spine nearly along it.
/// - ``bordersContinue(_:_:)``: the same share for the nearly flat lines,
///   which lowers a seam where borders reach the spine at other heights.
/// - ``bordersApart(_:_:)``: how far the edges where gutters and margins
///   meet the borders both pages draw fall from one shift, which lowers a
///   seam whose borders meet but each a little apart, as two pages of one
///   layout draw them.
/// - ``edges(response:)`` and ``edgesContinue(_:_:lost:)``: where the strip
///   turns lighter or darker below a height along each slope, matched as
///   the lines are: the boundaries of areas continue where the artwork does.
/// - ``outOfProportion(_:_:maxShift:)``: how far the facing edges' tones fall out of
///   the one proportion a gutter shadow or an exposure keeps, beyond how far
///   each page's own columns further in fall out of it.
///
/// Integer arithmetic in a fixed order: the same on every machine.
enum StripScore {
    /// Columns a strip has next to its edge (``PageEdges/strips``).
    static let depth = 24
    static let bands = PageEdges.rows
    /// Shifts (bands) a band of ink must hold at, and line heights may differ by.
    static let reach = 4
    static let lineReach = 3
    /// Slopes in tenths of a band a column, −12…12.
    static let slopes = Fan.lines.count
    /// Darkness as a share of a column's white, in 1/4096.
    static let unit: Int64 = 4096

    /// The slopes a strip's lines are followed along: steps of a tenth of a
    /// band a column from −`reach` to `reach` (the fan's own, not
    /// ``StripScore/reach``; index `reach` flat), of which those whose size
    /// is in `computed` are measured and the rest left at 0.
    struct Fan: Sendable {
        var reach: Int
        var computed: ClosedRange<Int>
        var count: Int { 2 * reach + 1 }

        /// Lines, borders and edges: up to 1.2 bands a column (68° from
        /// the horizontal on any page, a band 2.5 of the strip's columns).
        static let lines = Fan(reach: 12, computed: 0...12)
        /// Steep lines (``steepLinesContinue(_:_:lost:)``): 1.1 to 2.9
        /// bands a column, 70° to 82° from the horizontal, the speed lines
        /// that cross the spine nearly along it.
        static let steep = Fan(reach: 30, computed: 11...29)
    }

    /// A strip as both measures read it: each column's white (its 98th
    /// percentile over the bands) and the strip's levels under it, row by
    /// row, in 1/16 levels.
    struct Strip {
        var white: [Int32]
        var below: [Int32]
        /// Darkness as ``response(_:fan:)`` sums it: `below` as a share of its column's white (in
        /// ``unit``s), column by column, each column's bands contiguous; once for both fans. Within
        /// ±4080 × 4096 / 16 for levels of 0–255 (a white of at least 16), so a slope's sum of ten
        /// steps over the 24 columns stays within 32 bits; held to ``darkLimit`` whatever the levels.
        var dark: [Int32]

        init(_ strip: [Int32]) {
            let count = strip.count / depth
            // The 98th percentile is the `top`-th largest value: kept as the least of the `top` largest so far.
            let top = count - (count - 1) * 98 / 100
            white = (0..<depth).map { k in
                var largest = [Int32](repeating: .min, count: top)  // ascending
                for y in 0..<count {
                    let value = strip[y * depth + k]
                    guard value > largest[0] else { continue }
                    var i = 0
                    while i + 1 < top && largest[i + 1] < value { largest[i] = largest[i + 1]; i += 1 }
                    largest[i] = value
                }
                return largest[0]
            }
            below = strip
            for i in below.indices { below[i] = white[i % depth] - strip[i] }
            dark = [Int32](repeating: 0, count: below.count)
            for y in 0..<count {
                for k in 0..<depth {
                    let share = Int64(below[y * depth + k]) * unit / Int64(max(white[k], 16))
                    dark[k * count + y] = Int32(min(max(share, -darkLimit), darkLimit))
                }
            }
        }
    }

    /// The share of bands, in thousandths, where one page is paper across
    /// its strip (within 14 levels of every column's white) and the other is
    /// ink, 40 levels or more under its columns' white over the 12 columns
    /// next to the edge and over columns 6 to 11 alone, at every shift of up
    /// to ``reach`` bands; counted both ways, over twice the bands.
    static func paperAgainstInk(_ a: Strip, _ b: Strip) -> Int {
        let tolerance: Int32 = 14 * 16, ink: Int64 = 40 * 16
        let sides = [a.below, b.below]
        // Plain loops: the tests' unoptimised build runs these on every seam of every book they pair.
        func paper(_ below: [Int32]) -> [Bool] {
            var paper = [Bool](repeating: true, count: bands)
            for y in 0..<bands {
                for k in 0..<depth where below[y * depth + k] > tolerance {
                    paper[y] = false
                    break
                }
            }
            return paper
        }
        func inked(_ below: [Int32]) -> [Bool] {
            var inked = [Bool](repeating: false, count: bands)
            for y in 0..<bands {
                var near: Int64 = 0, inner: Int64 = 0
                for k in 0..<12 {
                    near += Int64(below[y * depth + k])
                    if k >= 6 { inner += Int64(below[y * depth + k]) }
                }
                inked[y] = near >= 12 * ink && inner >= 6 * ink
            }
            return inked
        }
        var count = 0
        for (white, other) in [(sides[0], sides[1]), (sides[1], sides[0])] {
            let isPaper = paper(white), isInk = inked(other)
            for y in reach..<(bands - reach) where isPaper[y] && (y - reach...y + reach).allSatisfy({ isInk[$0] }) {
                count += 1
            }
        }
        return count * 1000 / (2 * bands)
    }

    /// Where a run of paper across a strip meets a solid flat line
    /// (``flatEdges(_:)``): whether the line is below the paper, and the
    /// height at which the columns turn from paper to ink, in 1/256 band.
    struct FlatEdge: Equatable {
        var inkBelow: Bool
        var at: Int64
    }

    /// Darkness (in ``unit``s of a column's white) under which a band is paper in every column, over which a
    /// column has turned to ink, and over which the band past an edge is a solid line.
    static let paperDark: Int64 = 737, halfDark: Int64 = 2048, solidDark: Int64 = 2458
    /// The bands of paper a run needs for its ends to count, and how far past a run's end the columns must turn.
    static let paperRun = 3, edgeSearch = 6

    /// The flat edges of a strip's paper: the ends of every run of at least
    /// ``paperRun`` bands where all 24 columns are paper (a gutter between
    /// panel rows, a margin) at which every column turns to ink within
    /// ``edgeSearch`` bands, at heights on one straight line within 0.03 band
    /// a column of flat whose columns stray from it by 0.35 band or less
    /// (root mean square), with the band past it a solid line (over 0.6 of
    /// the white in 20 columns of the 24). Each column's height is where its
    /// darkness crosses half its white, between bands; the edge's is their mean.
    static func flatEdges(_ strip: Strip) -> [FlatEdge] {
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

    /// The most two matched flat edges' heights may differ by, in bands: two scans' shifts of up to 4 pixels each
    /// and a layout's borders drawn a little apart.
    static let bordersReach = 5
    /// The most one matched pair counts for in ``bordersApart(_:_:)``, in bands.
    static let bordersMismatch: Int64 = 1

    /// What a seam loses where its borders fall apart (``bordersApart(_:_:)``): ``bordersApartWeight``
    /// thousandths for each thousandth over ``bordersApartKnee``.
    static func bordersApartPenalty(_ apart: Int?) -> Int {
        apart.map { max(0, $0 - bordersApartKnee) * bordersApartWeight / 1000 } ?? 0
    }
    static let bordersApartKnee = 200, bordersApartWeight = 1000

    /// How far the flat edges two facing strips share fall from one shift,
    /// in thousandths of a band: each of page a's ``flatEdges(_:)`` matched
    /// with the nearest unmatched edge of page b of the same kind within
    /// ``bordersReach`` bands, and the mean distance of their differences
    /// from the differences' median, each at most ``bordersMismatch``; nil under 3 matched. A scan moves all
    /// of one artwork's borders together, so where a panel row crosses the
    /// spine every gutter's edges differ by one shift; two pages of one
    /// layout draw each border on its own, a pixel or two apart
    /// (docs/pairing.md, "Borders held together").
    static func bordersApart(_ a: Strip, _ b: Strip) -> Int? {
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

    /// How far the facing edges' tones fall out of one proportion beyond
    /// how far each page's own columns fall out of it, in thousandths of
    /// the relative difference; nil where the edges are too dark to tell.
    ///
    /// A gutter shadow or an exposure scales a band's level by one factor
    /// along the whole height, so where one artwork continues, the levels of
    /// the 6 columns next to one edge, at the coarse scale
    /// (``SeamScore/coarse(_:)``), are one multiple of the other's: the
    /// relative difference (b − a) / (b + a), band by band, stays where its
    /// median is. Its spread is the mean distance from that median, each band
    /// weighed by how far the darker edge is over 10 levels (a ratio of near
    /// black is noise). Two pages that are not one artwork, with tones in the
    /// same order (two crops of one picture at other heights, one tone along
    /// both edges between gutters at other heights), move out of proportion
    /// where their shapes differ. An artwork whose tones change across the
    /// spine (a boundary running along it, a grid of dots) moves as much within
    /// each page: the spread of each edge's columns against the page's own
    /// columns ``proportionColumns`` further in is what the pair is held to,
    /// and only what the facing edges' spread exceeds the largest of those
    /// by counts. The outer 12 bands of each end, where a scan leaves white
    /// rows and skewed corners, are left out. With `maxShift`, the facing
    /// edges are compared at their best shift of up to that many bands, as
    /// two scans' shifts put them; a page's own columns are not shifted.
    /// Integer arithmetic: the same on every machine.
    static func outOfProportion(_ a: [Int32], _ b: [Int32], maxShift: Int = 0) -> Int? {
        let profile = proportionProfile
        let (edgeA, edgeB) = (profile(a, 0), profile(b, 0))
        guard let across = (-maxShift...maxShift).compactMap({ proportionSpread(edgeA, edgeB, shift: $0) }).min()
        else { return nil }
        var own: Int?
        for (strip, edge) in [(a, edgeA), (b, edgeB)] {
            for column in proportionColumns {
                if let spread = proportionSpread(edge, profile(strip, column)) { own = max(own ?? 0, spread) }
            }
        }
        return own.map { max(0, across - $0) }
    }

    /// How far an edge's tones stray from one level, in thousandths: the
    /// ``proportionSpread(_:_:)`` of its ``proportionWidth`` columns at the
    /// coarse scale against a flat profile at their median; nil where the
    /// edge is too dark to tell. Two flat edges (white paper on both sides
    /// of the spine, a margin against a margin) keep one proportion whatever
    /// the pages show, so keeping it is evidence only where neither edge's
    /// range is under ``flatRange``
    /// (``adjustment(ink:lines:borders:edges:proportion:toneRange:)``).
    static func toneRange(_ strip: [Int32]) -> Int? {
        let edge = proportionProfile(strip, 0), trim = 12
        let median = edge[trim..<(bands - trim)].sorted()[(bands - 2 * trim) / 2]
        return proportionSpread(edge, [Int32](repeating: median, count: bands))
    }

    /// What a seam gains, in thousandths, where its facing edges' tones run
    /// in one order down the whole height (``SeamScore/levels(_:_:)`` over
    /// ``inOrder``) and keep one proportion band by band (within
    /// ``proportionAlike``, neither edge flat): the levels over
    /// ``inOrder``, up to 0.1. Across smooth colour (a sky, skin, a
    /// gradient background) the gradients carry only the scan's noise and
    /// the seam score stays low, while the tones themselves continue; two
    /// pages that are not one artwork seldom keep both their order and their
    /// proportion (on the labelled sets' seeds 1, 2 and 4–30, 2 of the
    /// 16,386 pairs judged that are not one artwork, against 3,107 of the
    /// 5,078 splits judged: docs/pairing.md, "Tones in order and in
    /// proportion").
    static func inOrderAndProportion(levels: Int, proportion: Int?, toneRange: Int?) -> Int {
        guard let proportion, proportion <= proportionAlike, toneRange.map({ $0 >= flatRange }) ?? true else { return 0 }
        return max(0, levels - inOrder)
    }

    /// The levels (thousandths) over which tones in proportion run in one
    /// order (``inOrderAndProportion(levels:proportion:toneRange:)``).
    static let inOrder = 900

    /// The ``toneRange(_:)`` (thousandths) under which an edge is flat and
    /// keeping one proportion with it says nothing. Chosen on the tuned
    /// seeds (docs/pairing.md, "Flat edges keep any proportion"): their
    /// pairs of white pages that are not one artwork stray 0–1 thousandths.
    static let flatRange = 2

    /// How far out of proportion (thousandths) two edges may be before the
    /// seam is lowered: the 95th to 99th percentile of the splits of the
    /// labelled sets (docs/pairing.md).
    static let proportionKnee = 15
    /// How close to one proportion (thousandths) two edges' tones must be
    /// for the seam to be raised (``adjustment(ink:lines:borders:edges:proportion:toneRange:)``).
    static let proportionAlike = 6
    /// Columns the edges' 6 are compared with on their own page.
    static let proportionColumns = [12, 18]
    /// The most two colour pages' facing edges are shifted against each other, in bands, when their
    /// proportion is read (``outOfProportion(_:_:maxShift:)``): two scans shifted by up to 4 pixels each are up
    /// to 8 apart, about 4 bands on a page 1,100 rows high. Gray pages are compared unshifted: there a shift lets
    /// rescanned screentone's moiré line up on pages that are not one artwork (docs/pairing.md,
    /// "Tones in proportion at a shift").
    static let proportionShift = 4
    static let proportionWidth = 6

    /// The ``proportionWidth`` columns of a strip from `column` on, summed
    /// band by band, at the coarse scale.
    static func proportionProfile(_ strip: [Int32], _ column: Int) -> [Int32] {
        SeamScore.coarse((0..<bands).map { y in
            (column..<(column + proportionWidth)).reduce(Int32(0)) { $0 + strip[y * depth + $1] }
        })
    }

    /// The weighed mean distance of two profiles' relative difference from
    /// its weighed median (``outOfProportion(_:_:maxShift:)``), in thousandths: band y of
    /// `a` against band y + `shift` of `b`, both within the bands kept.
    static func proportionSpread(_ a: [Int32], _ b: [Int32], shift: Int = 0) -> Int? {
        let floor = Int64(10 * 16 * proportionWidth), trim = 12
        var entries: [(ratio: Int64, weight: Int64)] = []
        let (first, end) = (max(trim, trim - shift), min(bands - trim, bands - trim - shift))
        for y in first..<max(first, end) {
            let (u, v) = (Int64(a[y]), Int64(b[y + shift]))
            let weight = min(u, v) - floor
            if weight > 0 { entries.append((((v - u) << 16) / (u + v), weight)) }
        }
        let total = entries.reduce(Int64(0)) { $0 + $1.weight }
        guard total > 0 else { return nil }
        var running: Int64 = 0, median: Int64 = 0
        for entry in entries.sorted(by: { $0.ratio < $1.ratio }) {
            running += entry.weight
            if 2 * running >= total { median = entry.ratio; break }
        }
        let distance = entries.reduce(Int64(0)) { $0 + $1.weight * abs($1.ratio - median) }
        return Int(distance * 1000 / (total << 16))
    }

    /// The strip's darkness summed along each slope (``slopes`` × ``bands``,
    /// slope by slope, bands contiguous; slope index 12 flat), in 1/4096 of
    /// the white summed over the 24 columns and ten steps: band y of the
    /// edge meets column k at y + step·k/10 bands, clamped to the strip.
    static func response(_ strip: Strip, fan: Fan = .lines) -> [Int64] {
        let slopes = fan.count
        let dark = strip.dark
        var response = [Int64](repeating: 0, count: slopes * bands)
        // One slope's sums in 32 bits (``Strip/dark``), which the compiler carries out several bands at a time.
        var sums = [Int32](repeating: 0, count: bands)
        dark.withUnsafeBufferPointer { dark in
            sums.withUnsafeMutableBufferPointer { sums in
                let row = sums.baseAddress!
                for s in 0..<slopes where fan.computed.contains(abs(s - slopes / 2)) {
                    let step = s - slopes / 2
                    for y in 0..<bands { row[y] = 0 }
                    for k in 0..<depth {
                        let column = dark.baseAddress! + k * bands
                        // Along slope `step`, band y of the edge meets column k at y + step·k/10 bands:
                        // `whole` bands and `t` tenths below, clamped to the strip at either end.
                        let offset = step * k, whole = offset >= 0 ? offset / 10 : -((-offset + 9) / 10)
                        let t = Int32(offset - 10 * whole)
                        // Inside the strip both neighbours exist; past either end the position is clamped.
                        let inside = max(0, -whole)..<max(max(0, -whole), min(bands, bands - 1 - whole))
                        // Wrapping operations, which never wrap (``darkLimit``), let the loop run several bands at a time.
                        let (low, high, near) = (column + whole, column + whole + 1, 10 - t)
                        for y in inside {
                            row[y] = row[y] &+ near &* low[y] &+ t &* high[y]
                        }
                        for y in 0..<inside.lowerBound { row[y] += clamped(y, offset, column) }
                        for y in inside.upperBound..<bands { row[y] += clamped(y, offset, column) }
                    }
                    for y in 0..<bands { response[s * bands + y] = Int64(row[y]) }
                }
            }
        }
        return response
    }

    /// Band y's step along a slope at `offset` tenths of a band, past either end of the strip: the
    /// position clamped to it.
    @inline(__always)
    private static func clamped(_ y: Int, _ offset: Int, _ column: UnsafePointer<Int32>) -> Int32 {
        let position = min(max(10 * y + offset, 0), 10 * (bands - 1))
        let low = position / 10, tenths = Int32(position % 10), high = min(low + 1, bands - 1)
        return (10 - tenths) * column[low] + tenths * column[high]
    }

    /// The most a band's darkness is held to (``Strip/dark``): 24 columns of ten steps at this stay
    /// within 32 bits, and levels of 0–255 never come near it.
    static let darkLimit: Int64 = 8_000_000

    /// What stands out of `values` (``slopes`` × ``bands``, slope by slope)
    /// at each height and slope: its value less the strongest 4 to 10 bands
    /// above or below it (clamped to the strip) and a floor of 0.04 of the
    /// white, never under 0; laid out band by band (``bands`` × ``slopes``).
    private static func standingOut(_ values: [Int64], fan: Fan = .lines) -> [Int64] {
        let slopes = fan.count
        let floor = unit * Int64(depth) * 10 * 4 / 100
        var out = [Int64](repeating: 0, count: bands * slopes)
        // One slope's bands with 10 copies of either end band outside (the neighbours clamped to the strip);
        // seven[i] is the best of padded bands i…i+6.
        let padded = bands + 20
        var band = [Int64](repeating: 0, count: padded)
        values.withUnsafeBufferPointer { values in
            out.withUnsafeMutableBufferPointer { out in
                for s in 0..<slopes where fan.computed.contains(abs(s - slopes / 2)) {
                    let row = s * bands
                    for i in 0..<padded { band[i] = values[row + min(max(i - 10, 0), bands - 1)] }
                    let seven = bestOfSeven(band, stride: 1)
                    for y in 0..<bands {
                        // Bands y−10…y−4 are padded y…y+6; bands y+4…y+10 are padded y+14…y+20.
                        let ring = seven[y] > seven[y + 14] ? seven[y] : seven[y + 14]
                        let standing = values[row + y] - ring - floor
                        out[y * slopes + s] = standing > 0 ? standing : 0
                    }
                }
            }
        }
        return out
    }

    /// The best of seven rows `stride` apart, from each row that has six
    /// more after it (rows i…i+6 at index i), through the best of two and of
    /// four: three comparisons a value rather than six.
    private static func bestOfSeven(_ values: [Int64], stride: Int) -> [Int64] {
        var two = [Int64](repeating: 0, count: values.count - stride)
        var four = [Int64](repeating: 0, count: values.count - 3 * stride)
        var seven = [Int64](repeating: 0, count: values.count - 6 * stride)
        values.withUnsafeBufferPointer { values in
            two.withUnsafeMutableBufferPointer { two in
                for i in 0..<two.count { two[i] = values[i] > values[i + stride] ? values[i] : values[i + stride] }
            }
        }
        two.withUnsafeBufferPointer { two in
            four.withUnsafeMutableBufferPointer { four in
                for i in 0..<four.count { four[i] = two[i] > two[i + 2 * stride] ? two[i] : two[i + 2 * stride] }
            }
        }
        four.withUnsafeBufferPointer { four in
            seven.withUnsafeMutableBufferPointer { seven in
                for i in 0..<seven.count { seven[i] = four[i] > four[i + 3 * stride] ? four[i] : four[i + 3 * stride] }
            }
        }
        return seven
    }

    /// Line strength by height at the edge and slope (``bands`` ×
    /// ``slopes``, slope index 12 flat, in 1/4096 of the white summed over
    /// the 24 columns and ten steps): the strip's darkness along each slope
    /// (``response(_:)``), less the strongest response 4 to 10 bands above or
    /// below it and a floor of 0.04 of the white, never under 0.
    static func lines(_ strip: Strip) -> [Int64] { lines(response: response(strip)) }

    static func lines(response: [Int64]) -> [Int64] { standingOut(response) }

    /// Edge strength by height and slope, as ``lines(_:)`` measures lines:
    /// where the strip turns lighter below a height along a slope (the
    /// darkness along it ``edgeStep`` bands above less that as far below),
    /// then where it turns darker, each less the strongest of the same kind
    /// 4 to 10 bands away and the floor. The boundary of a region, not only
    /// a drawn line: a sky meeting a roof, a tone patch's side, a stripe.
    static func edges(response: [Int64]) -> (lighter: [Int64], darker: [Int64]) {
        var lighter = [Int64](repeating: 0, count: response.count), darker = lighter
        for s in 0..<slopes {
            let row = s * bands
            for y in 0..<bands {
                let step = response[row + max(y - edgeStep, 0)] - response[row + min(y + edgeStep, bands - 1)]
                lighter[row + y] = step > 0 ? step : 0
                darker[row + y] = step < 0 ? -step : 0
            }
        }
        return (standingOut(lighter), standingOut(darker))
    }

    /// How far above and below a height ``edges(response:)`` compares, in bands.
    static let edgeStep = 2

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
    static func linesContinue(_ a: [Int64], _ b: [Int64], lost: Int = 0) -> (share: Int, strength: Int)? {
        continuing([(a, b)], slopes: { (2..<(slopes / 2)).contains(abs($0)) }, lost: lost, counted: lineStrength)
    }

    /// The same share for the lines steeper than ``linesContinue(_:_:lost:)``
    /// follows, on two facing strips: 1.1 to 2.9 bands a column
    /// (``Fan/steep``), followed across the same lost columns, each by its own
    /// slope. Speed lines that cross the spine nearly along it continue
    /// there; a steep line's height at the spine moves with a scan's scale
    /// and lost columns more than a shallow one's, so those that seem not
    /// to continue say little (``steepLinesAdjustment(_:)``).
    static func steepLinesContinue(_ a: Strip, _ b: Strip, lost: Int = 0) -> (share: Int, strength: Int)? {
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
    static func steepLinesAdjustment(_ share: Int?) -> Int {
        share.map { 2 * max(0, $0 - 400) } ?? 0
    }

    /// The same for the flat lines, within a tenth of a band a column of
    /// flat: panel borders, a horizon, a rule. Pages of one layout share
    /// them, so borders that continue say little; borders at other heights
    /// say the pages are not one artwork (``adjustment(ink:lines:borders:edges:proportion:toneRange:)``).
    static func bordersContinue(_ a: [Int64], _ b: [Int64]) -> (share: Int, strength: Int)? {
        continuing([(a, b)], slopes: { abs($0) <= 1 }, lost: 0, counted: borderStrength)
    }

    /// How much of two facing strips' ``edges(response:)`` continue across
    /// the spine, as ``linesContinue(_:_:lost:)`` counts lines, over every
    /// slope but the two steepest: an edge turning lighter below on one page
    /// continues as one turning lighter below on the other (the gaps
    /// searched only where the strength is over ``edgeStrength``).
    static func edgesContinue(_ a: (lighter: [Int64], darker: [Int64]), _ b: (lighter: [Int64], darker: [Int64]),
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

    /// The strips' columns two scans may have lost at the spine together:
    /// 12, nearly 1 % of the page's height (each column a 1/1,280 of it,
    /// ``PageEdges/canonicalHeight``).
    static let lostColumns = 12

    /// What the strips add to a seam's confidence, in thousandths: less twice
    /// the share of paper against ink over 0.02; where the pages draw
    /// lines (`lines` is their share that continues where their strength is
    /// over ``lineStrength``), twice that share less 0.4, and 0.3 of it where
    /// it is under 0.4 (lines that continue are rare between pages that are
    /// not one artwork; lines that seem not to are often a tone's dots or
    /// lines converging near the spine), or, where both pages are in colour
    /// (`colour`), 0.3 of what it falls short of ``colourLinesKnee`` only;
    /// and where they
    /// draw flat lines (`borders`, likewise over ``borderStrength``), less
    /// half of what that share falls short of 0.5 (``bordersKnee``); and where they have
    /// edges (`edges`, over ``edgeStrength``), 0.2 of their share less 0.3
    /// (edges that reach the spine at other heights on either page lower
    /// it: two crops of one picture of folds meet that way; docs/pairing.md,
    /// "Tones in order and in proportion");
    /// and 8 times what their tones fall out of proportion
    /// (``outOfProportion(_:_:maxShift:)``) over 0.015, or, where they are within
    /// 0.006 of one proportion, up to 0.06 more: 0.01 for each thousandth
    /// under ``proportionAlike`` (tones in proportion are evidence of one
    /// artwork, not only their absence: 92–96 % of the labelled sets' drawn
    /// and tone splits are within 0.003, against 28 % of the tone family's
    /// pairs that are not one artwork over a confidence of 0.4; photo 79 %
    /// against 37 %), unless the lesser of the facing edges' ``toneRange(_:)``
    /// (`toneRange`) is under ``flatRange``: flat edges keep any proportion.
    static func adjustment(ink: Int, lines: Int?, borders: Int? = nil, edges: Int? = nil, proportion: Int? = nil,
                           toneRange: Int? = nil, colour: Bool = false) -> Int {
        let inProportion = toneRange.map { $0 >= flatRange } ?? true
        let linesKnee = colour ? colourLinesKnee : 400
        return -2 * max(0, ink - 20) + (lines.map { $0 >= 400 ? 2 * ($0 - 400) : 3 * min(0, $0 - linesKnee) / 10 } ?? 0)
            - (borders.map { max(0, bordersKnee - $0) / 2 } ?? 0)
            + (edges.map { 2 * ($0 - 300) / 10 } ?? 0)
            + (proportion.map { (inProportion ? 10 * max(0, proportionAlike - $0) : 0) - 8 * max(0, $0 - proportionKnee) } ?? 0)
    }

    /// The share of lines that continue under which, where both pages are
    /// in colour, a seam is lowered (0.3 of the shortfall). The lines a
    /// photograph or a painting draws at the spine are the soft boundaries
    /// of its light and texture, which a scan's blur and skew move: the
    /// labelled sets' colour splits continue a median 0.23–0.29 of their
    /// lines where the gray splits continue 0.59–0.68. A tenth of the
    /// colour splits are under 0.1, and 85 % of the colour pairs that are
    /// not one artwork (docs/pairing.md, "Lines in colour").
    static let colourLinesKnee = 100

    /// How much of a seam's shortfall against its rivals counts, in
    /// thousandths: all of it, less a tenth for each hundredth of its lines
    /// that continue over 0.4, none from 0.5. The rivals are held to the
    /// seam and the levels only; lines crossing the spine each at its own
    /// slope and height are evidence none of them was measured on, and no
    /// pair of the labelled sets that is not one artwork has 0.35 of them
    /// (docs/pairing.md).
    static func rivalsCount(lines: Int?) -> Int {
        1000 - min(1000, 10 * max(0, (lines ?? 0) - 400))
    }

    /// The share of borders that continue under which a seam loses half the
    /// shortfall: the halves of one artwork's panels carry their borders
    /// across the spine, so where half of the borders' strength or more
    /// meets nothing on the other page, the pages are likelier two.
    static let bordersKnee = 500

    /// The line strength (in units of the white) over which a seam's lines count.
    static let lineStrength = 20
    /// The flat lines' strength (in units of the white) over which a seam's borders count.
    static let borderStrength = 10
    /// The edges' strength (in units of the white) over which a seam's edges count.
    static let edgeStrength = 10
}
