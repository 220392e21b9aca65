import MihirakiCodecs

/// A page's two side edges as the split detector compares them: for each of
/// ``rows`` bands from top to bottom, the mean gray level of the columns next
/// to the left edge and next to the right edge at full resolution, in 1/16
/// levels.
///
/// The columns are ``depth(height:)`` wide, a fixed share of the page's
/// height, so a page gives the same edges whatever size it is drawn at: a
/// JPEG page's come from its coefficients (``PageDecoder/EdgeRows``), in the
/// same decode that draws it when `render` reads them; other pages' from
/// their rows. Integer arithmetic throughout, so the profile is the same on
/// any machine and with any number of jobs.
struct PageEdges: Sendable, Equatable {
    /// Bands from top to bottom.
    static let rows = 512

    /// Next to the left edge, `rows` values (gray × 16).
    var left: [Int32]
    /// Next to the right edge.
    var right: [Int32]

    /// The columns averaged next to each edge of a page `height` rows high:
    /// 3 at the coarsest of 1/8, 1/4, 1/2 and 1 that keeps at least ``rows``
    /// rows, so about 12 on a 2,000-row scan.
    static func depth(height: Int) -> Int {
        var scale = 8
        while scale > 1 && (height + scale - 1) / scale < rows { scale /= 2 }
        return 3 * scale
    }

    /// Whether a page of this size is too small to judge (the detector then abstains on it).
    static func abstains(width: Int, height: Int) -> Bool {
        height < rows / 4 || width < 4 * depth(height: height)
    }

    /// The edges of a page, or nil when the page is too small to judge. The
    /// stored values are read, without colour management: both halves of a
    /// split went through the same scanner, and the splits found do not
    /// depend on `--color-manage`.
    /// - Throws: `CodecError` when the page cannot be decoded: detection never hides a bad page.
    static func read(_ bytes: [UInt8], maxPixels: Int) throws -> PageEdges? {
        let request = PageDecoder.EdgeRequest(depth: depth(height:))
        return try PageDecoder.withRows(bytes, maxPixels: maxPixels, colorManage: false, edges: request) { width, height, channels, nextRow in
            guard !abstains(width: width, height: height) else { return nil }
            if let rows = request.rows { return PageEdges(rows) }
            let depth = depth(height: height)
            var sums = PageDecoder.EdgeRows(depth: depth, left: [], right: [])
            var row = [UInt8](repeating: 0, count: width * channels)
            for _ in 0..<height {
                try row.withUnsafeMutableBufferPointer { try nextRow($0.baseAddress!) }
                var left: Int32 = 0, right: Int32 = 0
                for column in 0..<depth {
                    left += gray(row, column * channels, channels)
                    right += gray(row, (width - 1 - column) * channels, channels)
                }
                sums.left.append(left)
                sums.right.append(right)
            }
            return PageEdges(sums)
        }
    }

    /// The edges from a page's row sums (``PageDecoder/EdgeRows``), or nil
    /// when the page is too small to judge.
    init?(_ sums: PageDecoder.EdgeRows, width: Int) {
        guard !Self.abstains(width: width, height: sums.left.count) else { return nil }
        self.init(sums)
    }

    /// The rows spread evenly over the bands; a page shorter than ``rows``
    /// leaves some bands empty, and each takes the band above.
    private init(_ sums: PageDecoder.EdgeRows) {
        let height = sums.left.count
        var total = (left: [Int64](repeating: 0, count: Self.rows), right: [Int64](repeating: 0, count: Self.rows))
        var counts = [Int64](repeating: 0, count: Self.rows)
        for y in 0..<height {
            let band = y * Self.rows / height
            total.left[band] += Int64(sums.left[y])
            total.right[band] += Int64(sums.right[y])
            counts[band] += Int64(sums.depth) * 256
        }
        left = []
        right = []
        for band in 0..<Self.rows {
            if counts[band] == 0 {
                left.append(left.last ?? 0)
                right.append(right.last ?? 0)
            } else {
                left.append(Int32((total.left[band] * 16 + counts[band] / 2) / counts[band]))
                right.append(Int32((total.right[band] * 16 + counts[band] / 2) / counts[band]))
            }
        }
    }

    /// Luma of one pixel (BT.601 weights, integer), alpha ignored, in 1/256 levels.
    @inline(__always)
    private static func gray(_ row: [UInt8], _ offset: Int, _ channels: Int) -> Int32 {
        if channels < 3 { return Int32(row[offset]) << 8 }
        return 77 * Int32(row[offset]) + 150 * Int32(row[offset + 1]) + 29 * Int32(row[offset + 2])
    }
}
