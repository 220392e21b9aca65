import MihirakiRaster
import MihirakiCore
import MihirakiCodecs

/// A page's two side edges as the split detector compares them: for each of
/// ``rows`` bands from top to bottom, the mean level of the columns next to
/// the left edge and next to the right edge at full resolution, in 1/16
/// levels: luma, and for a colour page Cb and Cr too, each a channel of its
/// own (a sky or skin crossing the spine carries its detail in colour more
/// than in brightness).
///
/// Every measure is a share of the page's height: the bands, the columns
/// averaged (``depth(height:)``), and the strips' columns (``strips``, as if
/// the page were ``canonicalHeight`` rows high), so a book scanned at twice
/// the size is judged as it is at its own. A JPEG page's
/// edges come from its coefficients (``PageDecoder/EdgeRows``), in the same
/// decode that draws it when `render` reads them; other pages' from their
/// rows. Integer arithmetic throughout, so the profile is the same on any
/// machine and with any number of jobs.
package struct PageEdges: Sendable, Equatable {

    /// One channel's two edge profiles, `rows` values each.
    package struct Channel: Sendable, Equatable {
        /// Next to the left edge.
        package var left: [Int32]
        /// Next to the right edge.
        package var right: [Int32]

        /// The edge a page shows its successor in reading order (the right
        /// one left to right) and the one it shows its predecessor.
        package func facing(_ direction: ReadingDirection) -> (outgoing: [Int32], incoming: [Int32]) {
            direction == .ltr ? (right, left) : (left, right)
        }
    }

    /// Luma (BT.601), then for a colour page Cb and Cr.
    package var channels: [Channel]

    /// Whether the page is in colour: it has Cb and Cr beside luma.
    package var inColour: Bool { channels.count == 3 }

    /// Luma's ``StripScore/depth`` columns next to each edge one by one, each
    /// 1/``canonicalHeight`` of the page's height wide, for ``StripScore``:
    /// ``rows`` × that many band means in 1/16 levels, row by row, column 0
    /// at the edge; nil on a page narrower than twice the strip.
    package var strips: Channel?

    /// A gray page's luma next to each edge at full resolution for
    /// ``ToneTexture``; nil on a colour page and where ``strips`` is.
    package var tones: ToneTexture.Sides?

    /// The columns averaged next to each edge of a page `height` rows high:
    /// a 1/200 of its height, rounded (6 on a page 1,200 rows high, 15 on one
    /// 3,000 rows high), at least one.
    package static func depth(height: Int) -> Int {
        max(1, (height + 100) / 200)
    }

    /// The full-resolution columns next to each edge that make a page's
    /// strips: ``StripScore/depth`` columns a 1/``canonicalHeight`` of its
    /// height wide, rounded up.
    package static func stripDepth(height: Int) -> Int {
        (StripScore.depth * height + canonicalHeight - 1) / canonicalHeight
    }

    /// What a decode is asked for to give a page's edges.
    package static func request() -> PageDecoder.EdgeRequest {
        PageDecoder.EdgeRequest(depth: depth(height:), stripDepth: stripDepth(height:))
    }

    /// Whether a page of this size is too small to judge (the detector then abstains on it).
    package static func abstains(width: Int, height: Int) -> Bool {
        height < rows / 4 || width < 4 * depth(height: height)
    }

    /// The edges of a page, or nil when the page is too small to judge. The
    /// stored values are read, without colour management: both halves of a
    /// split went through the same scanner, and the splits found do not
    /// depend on `--color-manage`.
    /// - Throws: `CodecError` when the page cannot be decoded: detection never hides a bad page.
    package static func read(_ bytes: [UInt8], maxPixels: Int) throws -> PageEdges? {
        let request = request()
        return try PageDecoder.withRows(bytes, maxPixels: maxPixels, colorManage: false, edges: request) { width, height, channels, nextRow in
            guard !abstains(width: width, height: height) else { return nil }
            if let rows = request.rows { return PageEdges(rows) }
            let depth = depth(height: height), stripDepth = stripDepth(height: height)
            let colour = channels >= 3
            var sums = PageDecoder.EdgeRows(depth: depth, left: [], right: [], chroma: colour ? [[], [], [], []] : [],
                                            stripDepth: stripDepth)
            let withStrips = PageDecoder.EdgeRows.hasStrips(width: width, stripDepth: stripDepth)
            if withStrips { sums.strips = [[], []] }
            var row = [UInt8](repeating: 0, count: width * channels)
            for _ in 0..<height {
                try row.withUnsafeMutableBufferPointer { try nextRow($0.baseAddress!) }
                for column in 0..<(withStrips ? stripDepth : 0) {
                    sums.strips[0].append(levels(row, column * channels, channels).0)
                    sums.strips[1].append(levels(row, (width - 1 - column) * channels, channels).0)
                }
                var left = (0, 0, 0) as (Int32, Int32, Int32), right = (0, 0, 0) as (Int32, Int32, Int32)
                for column in 0..<depth {
                    let l = levels(row, column * channels, channels), r = levels(row, (width - 1 - column) * channels, channels)
                    left = (left.0 + l.0, left.1 + l.1, left.2 + l.2)
                    right = (right.0 + r.0, right.1 + r.1, right.2 + r.2)
                }
                sums.left.append(left.0)
                sums.right.append(right.0)
                if colour {
                    sums.chroma[0].append(left.1)
                    sums.chroma[1].append(right.1)
                    sums.chroma[2].append(left.2)
                    sums.chroma[3].append(right.2)
                }
            }
            return PageEdges(sums)
        }
    }

    /// The edges from a page's row sums (``PageDecoder/EdgeRows``), or nil
    /// when the page is too small to judge.
    package init?(_ sums: PageDecoder.EdgeRows, width: Int) {
        guard !Self.abstains(width: width, height: sums.left.count) else { return nil }
        self.init(sums)
    }

    /// Edges given profile by profile, each ``rows`` bands in 1/16 levels.
    package init(channels: [Channel]) {
        self.channels = channels
    }

    /// The rows, with a scan's fill left out (``withoutFill(_:)``), spread
    /// evenly over the bands; a page shorter than ``rows`` leaves some bands
    /// empty, and each takes the band above.
    private init(_ sums: PageDecoder.EdgeRows) {
        let sums = Self.withoutFill(sums)
        let planes = [sums.left, sums.right] + sums.chroma
        let bands = planes.map { Self.bands($0, depth: sums.depth) }
        channels = stride(from: 0, to: bands.count - 1, by: 2).map { Channel(left: bands[$0], right: bands[$0 + 1]) }
        let height = sums.left.count, stored = sums.stripDepth
        if sums.strips.count == 2 {
            let sides = sums.strips.map { strip in
                // Column by column as a plane of one column each, into bands, then into the strip's columns.
                let columns = Self.bands(strip, columns: stored)
                return Self.stripColumns(columns, height: height)
            }
            strips = Channel(left: sides[0], right: sides[1])
            if sums.chroma.isEmpty {
                let textures = sums.strips.map { ToneTexture.strip($0, stored: stored, height: height) }
                tones = ToneTexture.Sides(left: textures[0], right: textures[1])
            }
        }
    }


    /// A strip's full-resolution columns (each ``rows`` band means, column 0
    /// at the edge) as ``StripScore/depth`` columns each a
    /// 1/``canonicalHeight`` of the page's `height` wide, row by row: each
    /// the mean of the columns it covers, weighed by how much of each it
    /// covers (``coverage(count:span:unit:limit:)``), rounded to nearest.
    package static func stripColumns(_ columns: [[Int32]], height: Int) -> [Int32] {
        let depth = StripScore.depth, span = Int64(height)
        let weights = coverage(count: depth, span: height, unit: canonicalHeight, limit: columns.count)
        var out = [Int32](repeating: 0, count: rows * depth)
        for y in 0..<rows {
            for k in 0..<depth {
                var sum: Int64 = 0
                for (x, weight) in weights[k] { sum += weight * Int64(columns[x][y]) }
                out[y * depth + k] = Int32((sum + span / 2) / span)
            }
        }
        return out
    }

    /// `count` parts of a line of `limit` elements, in exact integers: part k
    /// spans [k·span, (k+1)·span) and element x [x·unit, (x+1)·unit); each
    /// part's elements and how much of each it covers (summing to `span`
    /// where the elements reach).
    package static func coverage(count: Int, span: Int, unit: Int, limit: Int) -> [[(index: Int, weight: Int64)]] {
        let (span, unit) = (Int64(span), Int64(unit))
        return (0..<count).map { k in
            let (from, to) = (Int64(k) * span, Int64(k + 1) * span)
            return (Int(from / unit)...Int((to - 1) / unit)).compactMap { x in
                let weight = min(to, Int64(x + 1) * unit) - max(from, Int64(x) * unit)
                return weight > 0 && x < limit ? (x, weight) : nil
            }
        }
    }

    /// One plane of row sums (`depth` columns each, 1/256 levels) as ``rows`` band means in 1/16 levels.
    private static func bands(_ sums: [Int32], depth: Int) -> [Int32] {
        bands(sums, columns: 1, depth: depth)[0]
    }

    /// `columns` planes stored row by row (row y's values at y·columns …
    /// y·columns + columns − 1, each a sum over `depth` columns), each as
    /// ``rows`` band means in 1/16 levels: row y falls in band
    /// y·``rows``/height, and a band no row reaches (a page shorter than
    /// ``rows``) takes the band above.
    private static func bands(_ plane: [Int32], columns: Int, depth: Int = 1) -> [[Int32]] {
        let height = columns == 0 ? 0 : plane.count / columns
        var total = [Int64](repeating: 0, count: rows * columns), counts = [Int64](repeating: 0, count: rows)
        plane.withUnsafeBufferPointer { plane in
            total.withUnsafeMutableBufferPointer { total in
                for y in 0..<height {
                    let band = y * rows / height
                    counts[band] += Int64(depth) * 256
                    let from = y * columns, to = band * columns
                    for k in 0..<columns { total[to + k] += Int64(plane[from + k]) }
                }
            }
        }
        return (0..<columns).map { k in
            var out: [Int32] = []
            out.reserveCapacity(rows)
            for band in 0..<rows {
                let count = counts[band]
                out.append(count == 0 ? (out.last ?? 0) : Int32((total[band * columns + k] * 16 + count / 2) / count))
            }
            return out
        }
    }

    /// Luma (BT.601 weights), Cb and Cr (centred on 128) of one pixel, integer, alpha ignored, in 1/256 levels.
    @inline(__always)
    private static func levels(_ row: [UInt8], _ offset: Int, _ channels: Int) -> (Int32, Int32, Int32) {
        if channels < 3 { return (Int32(row[offset]) << 8, 0, 0) }
        let r = Int32(row[offset]), g = Int32(row[offset + 1]), b = Int32(row[offset + 2])
        return (77 * r + 150 * g + 29 * b, -43 * r - 85 * g + 128 * b + 128 * 256, 128 * r - 107 * g - 21 * b + 128 * 256)
    }
}
