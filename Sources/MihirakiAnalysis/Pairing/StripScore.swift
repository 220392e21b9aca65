import MihirakiRaster
import MihirakiCore
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
package enum StripScore {
    package static let bands = PageEdges.rows
    /// Slopes in tenths of a band a column, −12…12.
    package static let slopes = Fan.lines.count

    /// The slopes a strip's lines are followed along: steps of a tenth of a
    /// band a column from −`reach` to `reach` (the fan's own, not
    /// ``StripScore/reach``; index `reach` flat), of which those whose size
    /// is in `computed` are measured and the rest left at 0.
    package struct Fan: Sendable {
        package var reach: Int
        package var computed: ClosedRange<Int>
        package var count: Int { 2 * reach + 1 }

        /// Lines, borders and edges: up to 1.2 bands a column (68° from
        /// the horizontal on any page, a band 2.5 of the strip's columns).
        package static let lines = Fan(reach: 12, computed: 0...12)
        /// Steep lines (``steepLinesContinue(_:_:lost:)``): 1.1 to 2.9
        /// bands a column, 70° to 82° from the horizontal, the speed lines
        /// that cross the spine nearly along it.
        package static let steep = Fan(reach: 30, computed: 11...29)
    }

    /// A strip as both measures read it: each column's white (its 98th
    /// percentile over the bands) and the strip's levels under it, row by
    /// row, in 1/16 levels.
    package struct Strip {
        package var white: [Int32]
        package var below: [Int32]
        /// Darkness as ``response(_:fan:)`` sums it: `below` as a share of its column's white (in
        /// ``unit``s), column by column, each column's bands contiguous; once for both fans. Within
        /// ±4080 × 4096 / 16 for levels of 0–255 (a white of at least 16), so a slope's sum of ten
        /// steps over the 24 columns stays within 32 bits; held to ``darkLimit`` whatever the levels.
        package var dark: [Int32]

        package init(_ strip: [Int32]) {
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
    package static func paperAgainstInk(_ a: Strip, _ b: Strip) -> Int {
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
}
