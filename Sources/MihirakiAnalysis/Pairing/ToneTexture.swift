import MihirakiRaster
import MihirakiCore
import MihirakiCodecs
import Foundation

/// Whether the screentones two gray pages carry at their facing edges are
/// one tone: a dot or line screen is a pattern of one pitch and angle, so
/// where one artwork's tone crosses the spine the same pattern lies on both
/// sides, while two pages of one panel layout put a dot tone against a
/// line tone, or tones of other pitches, at the same heights. The profiles
/// and strips (``SeamScore``, ``StripScore``) average a tone away; this
/// reads it at full resolution.
///
/// Each gray page keeps its luma next to each side edge as ``rows`` rows of
/// ``StripScore/depth`` columns, as if it were ``PageEdges/canonicalHeight``
/// rows high (each value the mean of the pixels it covers, weighed by how
/// much of each). Down each edge, windows ``window`` rows high and the
/// strip's width, every ``step`` rows: a window is **toned** where its
/// detail is spread over its four quarters (the least of their mean
/// differences between neighbours at least ``evenness`` of the most, which
/// a line or a patch's border crossing it is not), its power spectrum
/// (Hann-windowed, frequencies under ``lowest`` cycles a window left out:
/// shading, not tone) holds at least ``tonePower``, and no more than
/// ``flatShare`` of that lies along the horizontal axis (a panel border, a
/// gutter's rules). Two toned windows are one tone where their spectra,
/// each summed over its 3 × 3 neighbourhoods (a tone's pitch moves with a
/// scan's scale error and its moiré), have a cosine of ``alike`` or more.
/// Each toned window of one page is held against the other's toned windows
/// within two steps above or below it (the scans' shift), the best of
/// them counting; ``unlike(_:_:outgoingIsRight:)`` gives the share of such
/// windows, from both pages, whose best is under ``alike``, and
/// ``adjustment(_:)`` what that does to a seam's confidence.
///
/// Measured as Python replays first (docs/pairing.md, "Tones unlike"). The
/// transform is a direct one with twiddles rounded to 1/65,536, in doubles
/// summed in a fixed order, so the answer is the same on any machine.
package enum ToneTexture {
    /// Rows of a page's texture strip, as if it were ``PageEdges/canonicalHeight`` rows high.
    package static let rows = PageEdges.canonicalHeight
    /// Columns of a window: the whole strip.
    package static let columns = StripScore.depth

    /// A page's texture strip, `rows` × `columns` levels row by row, column 0 at the edge.
    package struct Strip: Sendable, Equatable {
        package var levels: [UInt8]
    }

    /// A gray page's two strips.
    package struct Sides: Sendable, Equatable {
        package var left: Strip
        package var right: Strip

        /// The edge a page shows its successor in reading order and the one it shows its predecessor.
        package func facing(_ direction: ReadingDirection) -> (outgoing: Strip, incoming: Strip) {
            direction == .ltr ? (right, left) : (left, right)
        }
    }

    /// A side's strip from its full-resolution columns: `strip` holds
    /// `height` rows of `stored` values (1/256 levels), column 0 at the edge,
    /// each row's first columns covering the strip's width.
    package static func strip(_ strip: [Int32], stored: Int, height: Int) -> Strip {
        let rowWeights = PageEdges.coverage(count: rows, span: height, unit: rows, limit: height)
        let columnWeights = PageEdges.coverage(count: columns, span: height, unit: PageEdges.canonicalHeight, limit: stored)
        let total = Int64(height) * Int64(height) * 256
        // Rows first, over the full-resolution columns the strip's columns reach, then columns: the same exact sums.
        let reached = min(stored, (columnWeights.last?.last?.index ?? -1) + 1)
        var down = [Int64](repeating: 0, count: rows * reached)
        strip.withUnsafeBufferPointer { levels in
            down.withUnsafeMutableBufferPointer { down in
                for r in 0..<rows {
                    for (y, wy) in rowWeights[r] {
                        for x in 0..<reached { down[r * reached + x] += wy * Int64(levels[y * stored + x]) }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: rows * columns)
        down.withUnsafeBufferPointer { down in
            for r in 0..<rows {
                for k in 0..<columns {
                    var sum: Int64 = 0
                    for (x, wx) in columnWeights[k] { sum += wx * down[r * reached + x] }
                    out[r * columns + k] = UInt8(clamping: (sum + total / 2) / total)
                }
            }
        }
        return Strip(levels: out)
    }

    /// What the facing edges' tones say: the share of toned windows (from
    /// both pages) whose best match on the other page is under ``alike``,
    /// in thousandths, and how many toned windows had a toned window on the
    /// other page to be held against.
    package struct Unlike: Hashable, Sendable {
        package var share: Int
        package var windows: Int
    }

    /// The two facing strips compared; `outgoingIsRight` says whether the
    /// first page's strip is its right edge (left to right), which decides
    /// how each strip's columns lie in the picture. Nil where neither page
    /// has a toned window facing a toned window.
    package static func unlike(_ outgoing: Strip, _ incoming: Strip, outgoingIsRight: Bool) -> Unlike? {
        let a = Windows(outgoing, isRightEdge: outgoingIsRight), b = Windows(incoming, isRightEdge: !outgoingIsRight)
        var windows = 0, unlike = 0
        for (mine, theirs) in [(a, b), (b, a)] {
            for i in mine.blocks.indices {
                let near = max(0, i - 2)...min(theirs.blocks.count - 1, i + 2)
                // A window is transformed only where the other page has a window nearby that may be toned.
                guard mine.blocks[i] != nil, near.contains(where: { theirs.blocks[$0] != nil }),
                      let spectrum = mine.spectrum(i) else { continue }
                var best = -Double.infinity
                for j in near {
                    guard let other = theirs.spectrum(j) else { continue }
                    var dot = 0.0
                    for n in 0..<spectrum.count { dot += spectrum[n] * other[n] }
                    best = max(best, dot)
                }
                guard best > -Double.infinity else { continue }
                windows += 1
                if best < alike { unlike += 1 }
            }
        }
        return windows == 0 ? nil : Unlike(share: (unlike * 1000 + windows / 2) / windows, windows: windows)
    }

    /// What a seam's tones add to its confidence, in thousandths. Tones
    /// unlike lower it: 0.3 times the share over 0.3 (down to −0.21). One
    /// tone on both sides raises it a little: 0.05 times what the share
    /// falls short of 0.05, as a share of 0.05 (up to +0.05). Each in full
    /// from its windows held (8 to lower, 16 to raise) and in proportion to
    /// fewer.
    package static func adjustment(_ unlike: Unlike) -> Int {
        -3 * max(0, unlike.share - 300) * min(8, unlike.windows) / 80
            + max(0, 50 - unlike.share) * min(16, unlike.windows) / 16
    }

    /// The windows down one strip: each window's samples as
    /// ``block(_:isRightEdge:index:)`` gives them (nil where it cannot be
    /// toned), and its spectrum (``spectrum(_:)``) once asked for.
    package final class Windows {
        package let blocks: [[Double]?]
        private var spectra: [Int: [Double]?] = [:]

        package init(_ strip: Strip, isRightEdge: Bool) {
            blocks = (0..<((rows - window) / step + 1)).map { ToneTexture.block(strip, isRightEdge: isRightEdge, index: $0) }
        }

        package func spectrum(_ index: Int) -> [Double]? {
            if let known = spectra[index] { return known }
            let result = blocks[index].flatMap(ToneTexture.spectrum)
            spectra[index] = result
            return result
        }
    }

    /// Window `index` of a strip as it lies in the picture (a right edge's
    /// column 0 is the picture's last), less its mean, Hann-windowed; nil
    /// where its detail is not spread over its quarters (``evenness(_:index:)``)
    /// or its whole energy is under ``tonePower``: its spectrum, h·w times
    /// that energy (Parseval's theorem), holds no more at the frequencies kept.
    package static func block(_ strip: Strip, isRightEdge: Bool, index: Int) -> [Double]? {
        let (h, w) = (window, columns)
        guard evenness(strip, index: index) >= evenness else { return nil }
        var block = [Double](repeating: 0, count: h * w)
        for y in 0..<h {
            for k in 0..<w {
                block[y * w + (isRightEdge ? w - 1 - k : k)] = Double(strip.levels[(index * step + y) * w + k])
            }
        }
        let mean = block.reduce(0, +) / Double(h * w)
        for n in block.indices { block[n] -= mean }
        let table = Tables.shared
        var energy = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let v = block[y * w + x] * table.hannRows[y] * table.hannColumns[x]
                block[y * w + x] = v
                energy += v * v
            }
        }
        return energy >= tonePower * table.hannPower ? block : nil
    }

}
