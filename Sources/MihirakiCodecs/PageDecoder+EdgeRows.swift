import CMihirakiCodecs
import MihirakiRaster

extension PageDecoder {
    /// Luma and chroma next to a page's two side edges, row by row at full
    /// resolution: what automatic pairing compares. For each stored row, the
    /// sum over the `depth` columns next to the left edge and next to the
    /// right edge, in 1/256 levels: luma (BT.601) in `left` and `right`;
    /// for a colour page, Cb and Cr (centred on 128) in `chroma`, in the
    /// order Cb left, Cb right, Cr left, Cr right. A gray page has no chroma.
    /// And luma's `stripDepth` columns next to each edge one by one, in
    /// `strips` (left, then right; row by row, column 0 at the edge, 1/256
    /// levels), on a page at least twice as wide.
    package struct EdgeRows: Sendable, Equatable {
        package var depth: Int
        package var left: [Int32]
        package var right: [Int32]
        package var chroma: [[Int32]]
        /// The columns next to each edge that `strips` keeps one by one.
        package var stripDepth: Int
        package var strips: [[Int32]]

        package init(depth: Int, left: [Int32], right: [Int32], chroma: [[Int32]] = [], stripDepth: Int = 0,
                     strips: [[Int32]] = []) {
            self.depth = depth
            self.left = left
            self.right = right
            self.chroma = chroma
            self.stripDepth = stripDepth
            self.strips = strips
        }

        /// Whether a page this wide has `stripDepth` columns for each edge.
        package static func hasStrips(width: Int, stripDepth: Int) -> Bool { stripDepth > 0 && width >= 2 * stripDepth }
    }
}
