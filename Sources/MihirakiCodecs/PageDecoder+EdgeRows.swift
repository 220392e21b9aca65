import CMihirakiCodecs
import MihirakiRaster

extension PageDecoder {
    /// Luma next to a page's two side edges, row by row at full resolution:
    /// what automatic pairing compares. For each stored row, the sum over the
    /// `depth` columns next to the left edge and next to the right edge, in
    /// 1/256 levels.
    package struct EdgeRows: Sendable, Equatable {
        package var depth: Int
        package var left: [Int32]
        package var right: [Int32]

        package init(depth: Int, left: [Int32], right: [Int32]) {
            self.depth = depth
            self.left = left
            self.right = right
        }
    }
}
