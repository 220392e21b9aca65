import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Finds a page's border (SPEC §3b, `--crop-borders`): the frame of rows and
/// columns, from each edge inwards, whose pixels stay within ``tolerance``
/// of the edge's own colour, a line counting as border while at most
/// ``specksPerMille`` of its pixels differ (dust, JPEG noise). The colour is
/// the median of the outermost line, then of each border line in turn, so
/// a border that darkens slowly towards a scanner's lid still counts; it may
/// not wander more than ``drift`` from the outermost line's. A border counts
/// only where it ends at the page's edge, where at least ``edgePerMille`` of
/// a line differ or the colour jumps: a flat stretch of art that ends with
/// only a few pixels of detail, fades, or runs on to the page's middle is
/// art, however wide. Up to two lines of an edge's JPEG ringing or blur go
/// with the border, so the two halves of an artwork meet row for row.
/// Integer arithmetic on the decoded samples: the same on every machine.
package enum BorderFinder {
    /// How far, in levels of 255 on any colour channel, a border pixel may
    /// be from its line's colour. Chosen with `scripts/bench-split` (docs/split-and-crop.md).
    package static let tolerance = 24
    /// How far a border line's colour may be from the outermost line's: a
    /// border is flat across its width; art that fades in is not.
    package static let drift = 8
    /// The share of a line, in thousandths, that must differ where a border
    /// ends (at the line that stops it or the next two): the page's edge.
    package static let edgePerMille = 100
    /// How far apart a border's colour channels may be: more is a coloured edge, art.
    package static let neutral = 30
    /// The share of a line, in thousandths, that may differ and the line still be border.
    package static let specksPerMille = 5
    /// Strokes that reach the art's edge (speed lines, hatching on paper of
    /// the border's own colour) mark it too, though they cross too little
    /// of the line to be a clear edge: at least this many separate runs of
    /// differing pixels start at the line that stops the border ...
    package static let strokesAtEdge = 3
    /// ... and go on inwards, each seen again within two pixels of where it
    /// was in the line before (a slanted stroke moves along), in every one
    /// of this many lines after it. Detail that only starts to show (a few
    /// birds in a sky) or fades in does not go on so.
    package static let strokeLength = 12

    /// The border's width on each side of `region` (in `image`'s pixels),
    /// at most `limitX` on the left and right and `limitY` at the top and bottom.
    package static func borders(in image: PixelBuffer, region: PixelRect, limitX: Int, limitY: Int)
        -> (left: Int, top: Int, right: Int, bottom: Int) {
        let limitX = min(limitX, region.width / 2), limitY = min(limitY, region.height / 2)
        var b = (left: 0, top: 0, right: 0, bottom: 0)
        // Twice: the second pass measures each side only between the borders the first found across it.
        for pass in 0..<2 {
            // With no border found across them, the sides measure the same again.
            if pass == 1 && b == (0, 0, 0, 0) { break }
            let rows = (region.y + b.top)..<(region.y + region.height - b.bottom)
            let columns = (region.x + b.left)..<(region.x + region.width - b.right)
            // Each side's lines from the edge inwards, as far as the page's middle:
            // a border wider than the limit must still show its edge to be cut.
            let reachX = region.width / 2, reachY = region.height / 2
            b = (left: depth(image, lines: Array(region.x..<(region.x + reachX)), limit: limitX, along: rows, vertical: true),
                 top: depth(image, lines: Array(region.y..<(region.y + reachY)), limit: limitY, along: columns, vertical: false),
                 right: depth(image, lines: Array(((region.x + region.width - reachX)..<(region.x + region.width)).reversed()),
                              limit: limitX, along: rows, vertical: true),
                 bottom: depth(image, lines: Array(((region.y + region.height - reachY)..<(region.y + region.height)).reversed()),
                               limit: limitY, along: columns, vertical: false))
        }
        return b
    }

    /// How many of `lines` (columns when `vertical`, else rows), taken in
    /// order from the edge, are border, each over the span `along`; at most
    /// `limit`. A border counts only where it ends at a clear edge: one that
    /// fades, drifts or runs on to the page's middle is flat art.
    private static func depth(_ image: PixelBuffer, lines: [Int], limit: Int, along span: Range<Int>,
                              vertical: Bool) -> Int {
        guard span.count > 0, limit > 0 else { return 0 }
        let colors = min(image.channels, 3), channels = image.channels, rowBytes = image.rowBytes
        let allowed = span.count * specksPerMille / 1000
        var reference: [Int]?, edge: [Int]?
        var count = 0
        // A line's pixels lie `step` bytes apart from its first, at `start(line)`.
        let step = vertical ? rowBytes : channels
        func start(_ line: Int) -> Int {
            vertical ? span.lowerBound * rowBytes + line * channels : line * rowBytes + span.lowerBound * channels
        }
        let every = span.count >= 64 ? 4 : 1, sampled = (span.count + every - 1) / every
        var histogram = [Int](repeating: 0, count: 256)
        return image.pixels.withUnsafeBufferPointer { pixels -> Int in
            /// How many of the line's pixels differ from `color`, and their summed distance from it.
            /// Gray and RGB have loops of their own, with the colour in locals: on blank pages, which are
            /// walked to their middle, the general loop alone made `render --crop-borders` 1.16–1.18× slower
            /// (40 blank RGB JPEG pages of 1700×2400: 2.77 s against 2.39 s; 20 gray: 0.68 s against 0.58 s).
            func differing(_ line: Int, from color: [Int]) -> (count: Int, distance: Int) {
                var count = 0, distance = 0, p = start(line)
                if colors == 1 {
                    let c0 = color[0]
                    for _ in 0..<span.count {
                        let far = abs(Int(pixels[p]) - c0)
                        distance += far
                        count += far > tolerance ? 1 : 0
                        p += step
                    }
                } else if colors == 3 {
                    let c0 = color[0], c1 = color[1], c2 = color[2]
                    for _ in 0..<span.count {
                        let far = max(abs(Int(pixels[p]) - c0), abs(Int(pixels[p + 1]) - c1), abs(Int(pixels[p + 2]) - c2))
                        distance += far
                        count += far > tolerance ? 1 : 0
                        p += step
                    }
                } else {
                    for _ in 0..<span.count {
                        var far = 0
                        for channel in 0..<colors { far = max(far, abs(Int(pixels[p + channel]) - color[channel])) }
                        distance += far
                        count += far > tolerance ? 1 : 0
                        p += step
                    }
                }
                return (count, distance)
            }
            /// Where along the span the line differs from `color`: the start of each run of differing pixels.
            func runs(_ line: Int, from color: [Int]) -> [Int] {
                var starts: [Int] = [], inside = false, p = start(line)
                for i in 0..<span.count {
                    var far = 0
                    for channel in 0..<colors { far = max(far, abs(Int(pixels[p + channel]) - color[channel])) }
                    if far > tolerance && !inside { starts.append(i) }
                    inside = far > tolerance
                    p += step
                }
                return starts
            }
            /// Whether strokes start at `lines[index]` and run on inwards (``strokesAtEdge``, ``strokeLength``).
            func strokesStart(at index: Int, from color: [Int]) -> Bool {
                var strokes = runs(lines[index], from: color)
                guard strokes.count >= strokesAtEdge, index + strokeLength < lines.count else { return false }
                for line in lines[(index + 1)...(index + strokeLength)] {
                    let here = runs(line, from: color)
                    // Each stroke followed on (a thin one JPEG broke off is dropped).
                    strokes = strokes.compactMap { x in here.first { abs($0 - x) <= 2 } }
                    guard strokes.count >= strokesAtEdge else { return false }
                }
                return true
            }
            /// The line's colour: the median of every fourth pixel, per channel.
            func median(_ line: Int) -> [Int] {
                (0..<colors).map { channel in
                    histogram.withUnsafeMutableBufferPointer { histogram in
                        histogram.update(repeating: 0)
                        var p = start(line) + channel
                        for _ in 0..<sampled {
                            histogram[Int(pixels[p])] += 1
                            p += step * every
                        }
                        var seen = 0
                        for value in 0..<256 {
                            seen += histogram[value]
                            if 2 * seen >= sampled { return value }
                        }
                        return 255
                    }
                }
            }
            for (index, line) in lines.enumerated() {
                let median = median(line)
                // A border is white, black or grey: a coloured edge is art.
                if reference == nil && median.max()! - median.min()! > neutral { return 0 }
                let color = reference ?? median
                // Each line is near the last border line, and all stay near the outermost.
                let drifted = edge.map { zip(median, $0).contains { abs($0 - $1) > drift } } ?? false
                let here = differing(line, from: color)
                if !drifted && here.count <= allowed {
                    count += 1
                    reference = median
                    if edge == nil { edge = median }
                    continue
                }
                // Where a border ends the page begins: a clear edge across much of
                // this line or the next two (an edge blurred over a line or two by
                // scanning and JPEG), or a line whose colour leaves the border's in one
                // jump (a thin black frame on a black scanner bed). Art
                // that only starts to show, or fades, is flat art at the edge.
                guard count > 0 else { return 0 }
                let next = lines[index...].prefix(3).map { differing($0, from: color) }
                let jumped = drifted && zip(median, color).contains { 2 * abs($0 - $1) >= drift }
                guard jumped || next.map(\.count).max()! * 1000 >= span.count * edgePerMille
                        || strokesStart(at: index, from: color) else { return 0 }
                // Up to two lines that are only a shade of the edge beyond them (JPEG's
                // ringing, a scanner's blur) are the border's last: the first art
                // line, clearly off the border's colour, lies at least three times
                // as far from it as each of them.
                if let art = next.indices.dropFirst().first(where: { next[$0].distance >= 2 * tolerance * span.count }),
                   next[..<art].allSatisfy({ 3 * $0.distance <= next[art].distance }) {
                    count += art
                }
                return min(count, limit)
            }
            // The border ran on to the page's middle without an edge: a flat page, or flat art.
            return 0
        }
    }
}
