import MihirakiRaster
import MihirakiCore
import MihirakiCodecs

/// ``StripScore``: tones out of (or in) proportion across the spine, and a strip's tone range.
extension StripScore {
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
    package static func outOfProportion(_ a: [Int32], _ b: [Int32], maxShift: Int = 0) -> Int? {
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
    package static func toneRange(_ strip: [Int32]) -> Int? {
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
    package static func inOrderAndProportion(levels: Int, proportion: Int?, toneRange: Int?) -> Int {
        guard let proportion, proportion <= proportionAlike, toneRange.map({ $0 >= flatRange }) ?? true else { return 0 }
        return max(0, levels - inOrder)
    }




    /// The ``proportionWidth`` columns of a strip from `column` on, summed
    /// band by band, at the coarse scale.
    package static func proportionProfile(_ strip: [Int32], _ column: Int) -> [Int32] {
        SeamScore.coarse((0..<bands).map { y in
            (column..<(column + proportionWidth)).reduce(Int32(0)) { $0 + strip[y * depth + $1] }
        })
    }

    /// The weighed mean distance of two profiles' relative difference from
    /// its weighed median (``outOfProportion(_:_:maxShift:)``), in thousandths: band y of
    /// `a` against band y + `shift` of `b`, both within the bands kept.
    package static func proportionSpread(_ a: [Int32], _ b: [Int32], shift: Int = 0) -> Int? {
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
}
