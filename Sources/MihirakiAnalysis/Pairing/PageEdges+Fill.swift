import MihirakiRaster
import MihirakiCore
import MihirakiCodecs

/// ``PageEdges``: a scan's fill: the white a straightening rotation leaves along an edge from a
/// corner, found and passed over.
extension PageEdges {
    /// The row sums with the scan's fill left out: a scan rotated to
    /// straighten its page is filled with white where the page did not
    /// reach, a wedge along each side edge from one corner, a column or a
    /// few wide (blended with the page) and narrowing toward the middle.
    /// Averaged in, it lightens one end of the edge and not the other's.
    /// Where the rows from the top or the bottom of the page start with
    /// columns lighter than the page past them (``fill(_:stored:depth:)``),
    /// the row's luma is the `depth` columns past those, from the strips.
    package static func withoutFill(_ sums: PageDecoder.EdgeRows) -> PageDecoder.EdgeRows {
        guard sums.strips.count == 2 else { return sums }
        var out = sums
        for side in 0..<2 {
            let strip = sums.strips[side], stored = sums.stripDepth, depth = sums.depth
            for (y, width) in fill(strip, stored: stored, depth: depth) {
                let row = y * stored
                let luma = (width..<(width + depth)).reduce(Int32(0)) { $0 + strip[row + $1] }
                if side == 0 { out.left[y] = luma } else { out.right[y] = luma }
                // The strip's row from past the fill, its last column repeated to fill it out.
                for k in 0..<stored { out.strips[side][row + k] = strip[row + min(k + width, stored - 1)] }
            }
        }
        return out
    }

    /// The rows of a strip (`stored` full-resolution columns a row, column 0
    /// at the edge) that a scan's fill reaches, each with the columns to
    /// skip: those from the edge ``fillStep`` lighter than the median of the
    /// `depth` columns `depth` in (at most `depth` of them). Only rows in a
    /// run from the top or the bottom of the page count, since a scan's fill
    /// starts at a corner (within `2·depth` rows of it, a 1/100 of the
    /// height); rows of paper across the strip (a margin, a shifted scan's
    /// blank rows) are passed over before it, and the run ends where `depth`
    /// rows in a row have none. A run that reaches the middle of the page,
    /// that ends wider than half of `depth` (3 columns on a page 1,200
    /// rows high), or that spans less than a 1/20 of the height is a band
    /// of the artwork, not a scan's fill.
    package static func fill(_ strip: [Int32], stored: Int, depth: Int) -> [(row: Int, width: Int)] {
        let height = stored == 0 ? 0 : strip.count / stored
        guard stored >= 3 * depth else { return [] }
        /// The columns to skip in row y, or nil where the row is paper.
        func skip(_ y: Int) -> Int? {
            let row = y * stored
            // The median (the sorted columns' element depth/2) is paper when that many columns and more
            // are: most rows of a margin, told without a sort.
            let window = strip[(row + depth)..<(row + 2 * depth)]
            if window.reduce(0, { $0 + ($1 >= paperLevel ? 1 : 0) }) >= depth - depth / 2 { return nil }
            let page = window.sorted()[depth / 2]
            var width = 0
            while width < depth && strip[row + width] >= page + fillStep { width += 1 }
            return width
        }
        var rows: [(row: Int, width: Int)] = []
        for order in [Array(0..<height), Array((0..<height).reversed())] {
            var run: [(row: Int, width: Int)] = [], missing = 0, reachesMiddle = false
            for (seen, y) in order.enumerated() {
                if seen >= height / 2 { reachesMiddle = true; break }
                guard let width = skip(y) else {
                    if run.isEmpty { continue } else { break }
                }
                // The fill starts within a 1/100 of the height of the corner (past a scan's blurred first rows).
                if run.isEmpty && seen >= 2 * depth { break }
                if width == 0 {
                    missing += 1
                    if !run.isEmpty && missing >= depth { break }
                    continue
                }
                missing = 0
                run.append((y, width))
            }
            // A wedge narrows to a column or two where it ends, over a 1/20 of the height or more (a column at
            // a skew of 1°); a band of the artwork ends at its own width, or within a few rows.
            if !reachesMiddle, let first = run.first, let last = run.last, last.width <= max(2, depth / 2),
               abs(last.row - first.row) + 1 >= height / 20 { rows += run }
        }
        return rows
    }
}
