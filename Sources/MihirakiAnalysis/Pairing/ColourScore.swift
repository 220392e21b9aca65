import MihirakiRaster
import MihirakiCore
import MihirakiCodecs
/// Whether two facing edges of colour pages show the same colours band by
/// band (``apart(_:_:)``): the two halves of one artwork do, whatever the
/// scan did to each half's brightness.
///
/// A hue survives what a scan does to one half and not the other: a gutter
/// shadow or an exposure multiplies a pixel's three components alike, which
/// scales its chroma (Cb and Cr about 128) and keeps its direction, and an
/// offset added to all three leaves the chroma as it is. Levels and
/// gradients cannot tell two blue-and-orange pages from one (their tones
/// rise and fall in the same order); the hues at the spine can. Where both
/// pages are near gray a hue is noise and the band says nothing.
///
/// Integer arithmetic in a fixed order: the same on every machine.
package enum ColourScore {

    /// One edge's chroma: Cb and Cr profiles (``PageEdges/Channel``, 1/16
    /// levels, 128 at gray), at the coarse scale.
    package struct Edge {
        package var cb: [Int32], cr: [Int32]

        package init(cb: [Int32], cr: [Int32]) {
            self.cb = SeamScore.coarse(cb).map { $0 - 128 * 16 }
            self.cr = SeamScore.coarse(cr).map { $0 - 128 * 16 }
        }
    }

    /// How far apart the colours of two facing edges are, in thousandths,
    /// at the shift (up to ``reach`` bands) where they are closest: the mean
    /// over the bands both edges cover of each band's distance: 1 where one
    /// page is ``vivid`` and the other has under a quarter of its chroma
    /// (a shadow or an exposure changes it by half at most); else, where
    /// both are ``saturated``, half of one less the cosine of the angle
    /// between the two chroma vectors (0 for one hue, 1 for opposite hues);
    /// 0 elsewhere.
    package static func apart(_ a: Edge, _ b: Edge) -> Int {
        let n = min(a.cb.count, b.cb.count)
        var least = Int.max
        for shift in -reach...reach {
            let start = max(0, -shift), end = min(n, n - shift)
            guard end > start else { continue }
            var total: Int64 = 0
            for y in start..<end {
                total += distance(a, y, b, y + shift)
            }
            least = min(least, Int(total / Int64(end - start)))
        }
        return least == .max ? 0 : least
    }

    /// One band's distance, in thousandths.
    @inline(__always)
    private static func distance(_ a: Edge, _ i: Int, _ b: Edge, _ j: Int) -> Int64 {
        let (x0, x1, y0, y1) = (Int64(a.cb[i]), Int64(a.cr[i]), Int64(b.cb[j]), Int64(b.cr[j]))
        let ma = x0 * x0 + x1 * x1, mb = y0 * y0 + y1 * y1
        let weak = min(ma, mb), strong = max(ma, mb)
        // Four times the chroma on one side: more than a shadow or an exposure makes of one colour.
        if strong >= vivid * vivid && 16 * weak < strong { return 1000 }
        guard weak >= saturated * saturated else { return 0 }
        let lengths = SeamScore.squareRoot(ma * mb)
        return max(0, 1000 * (lengths - (x0 * y0 + x1 * y1)) / (2 * lengths))
    }

    /// What the colours take from a seam's strength, in thousandths: twice
    /// their distance over ``knee``. The halves of one artwork stay under
    /// it (0.08 at most on the labelled sets' colour splits).
    package static func penalty(_ apart: Int) -> Int {
        2 * max(0, apart - knee)
    }
}
