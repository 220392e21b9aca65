import MihirakiCodecs

/// A page's two side edges as the split detector compares them: for each of
/// ``rows`` bands from top to bottom, the gray level of the few columns next
/// to the left edge and next to the right edge, in 1/16 levels.
///
/// Read at reduced scale (JPEG's DCT scaling makes that nearly free), row by
/// row, keeping only the edge columns; integer arithmetic throughout, so the
/// profile is the same on any machine and with any number of jobs.
struct PageEdges: Sendable, Equatable {
    /// Bands from top to bottom. A page is read at no less than this height.
    static let rows = 512
    /// Columns averaged next to each edge, at the reduced scale.
    static let depth = 3

    /// Next to the left edge, `rows` values (gray × 16).
    var left: [Int32]
    /// Next to the right edge.
    var right: [Int32]

    /// The edges of a page, or nil when the page is too small to judge (the
    /// detector then abstains on it). The stored values are read, without
    /// colour management: both halves of a split went through the same
    /// scanner, and the splits found do not depend on `--color-manage`.
    /// - Throws: `CodecError` when the page cannot be decoded: detection never hides a bad page.
    static func read(_ bytes: [UInt8], maxPixels: Int) throws -> PageEdges? {
        let header = try PageDecoder.header(of: bytes)
        guard header.height >= rows / 4, header.width >= 8 * depth else { return nil }
        let atLeastWidth = max(8 * depth, (header.width * rows + header.height - 1) / header.height)
        return try PageDecoder.withRows(bytes, maxPixels: maxPixels, colorManage: false,
                                        atLeast: (atLeastWidth, rows)) { width, height, channels, nextRow in
            guard width >= 4 * depth, height >= rows / 4 else { return nil }
            var sums = (left: [Int64](repeating: 0, count: rows), right: [Int64](repeating: 0, count: rows))
            var counts = [Int64](repeating: 0, count: rows)
            var row = [UInt8](repeating: 0, count: width * channels)
            for y in 0..<height {
                try row.withUnsafeMutableBufferPointer { try nextRow($0.baseAddress!) }
                // Band of this row: rows are spread evenly over the bands.
                let band = y * rows / height
                var left: Int64 = 0, right: Int64 = 0
                for column in 0..<depth {
                    left += Int64(gray(row, column * channels, channels))
                    right += Int64(gray(row, (width - 1 - column) * channels, channels))
                }
                sums.left[band] += left
                sums.right[band] += right
                counts[band] += Int64(depth)
            }
            // A page shorter than `rows` leaves some bands empty: each takes the band above.
            var edges = PageEdges(left: [], right: [])
            for band in 0..<rows {
                if counts[band] == 0 {
                    edges.left.append(edges.left.last ?? 0)
                    edges.right.append(edges.right.last ?? 0)
                } else {
                    edges.left.append(Int32((sums.left[band] * 16 + counts[band] / 2) / counts[band]))
                    edges.right.append(Int32((sums.right[band] * 16 + counts[band] / 2) / counts[band]))
                }
            }
            return edges
        }
    }

    /// Luma of one pixel (BT.601 weights, integer), alpha ignored.
    @inline(__always)
    private static func gray(_ row: [UInt8], _ offset: Int, _ channels: Int) -> Int {
        if channels < 3 { return Int(row[offset]) }
        return (77 * Int(row[offset]) + 150 * Int(row[offset + 1]) + 29 * Int(row[offset + 2]) + 128) >> 8
    }
}
