import MihirakiRaster
import MihirakiCore
import MihirakiCodecs
import Foundation

/// ``ToneTexture``: a window's power spectrum, by a direct transform with twiddles rounded so
/// every machine gives the same sums.
extension ToneTexture {
    /// A window's normalised power spectrum at the frequencies kept, each
    /// frequency summed over its 3 × 3 neighbourhood; nil where the window
    /// is not toned. `windowed` is ``block(_:isRightEdge:index:)``'s.
    package static func spectrum(_ windowed: [Double]) -> [Double]? {
        let (h, w) = (window, columns)
        let table = Tables.shared
        // Rows first, for the non-negative column frequencies (the input is real), then columns.
        let half = w / 2 + 1
        var rowRe = [Double](repeating: 0, count: h * half), rowIm = rowRe
        var power = [Double](repeating: 0, count: h * w)
        let (rowCos, rowSin, columnCos, columnSin) = (table.rowCos, table.rowSin, table.columnCos, table.columnSin)
        for y in 0..<h {
            for kx in 0..<half {
                var re = 0.0, im = 0.0
                for x in 0..<w {
                    re += windowed[y * w + x] * rowCos[kx * w + x]
                    im -= windowed[y * w + x] * rowSin[kx * w + x]
                }
                rowRe[y * half + kx] = re
                rowIm[y * half + kx] = im
            }
        }
        for kx in 0..<half {
            for ky in 0..<h {
                var re = 0.0, im = 0.0
                for y in 0..<h {
                    let (c, s) = (columnCos[ky * h + y], columnSin[ky * h + y])
                    re += rowRe[y * half + kx] * c + rowIm[y * half + kx] * s
                    im += rowIm[y * half + kx] * c - rowRe[y * half + kx] * s
                }
                let p = table.high[ky * w + kx] ? re * re + im * im : 0
                power[ky * w + kx] = p
                // A real window's spectrum is symmetric about the origin.
                if kx > 0 && kx < w - kx { power[((h - ky) % h) * w + (w - kx)] = p }
            }
        }
        var total = 0.0, flat = 0.0
        for ky in 0..<h {
            for kx in 0..<w {
                total += power[ky * w + kx]
                if table.flat[kx] { flat += power[ky * w + kx] }
            }
        }
        guard total / Double(h * w) / table.hannPower >= tonePower, flat <= flatShare * total else { return nil }
        var summed = [Double](repeating: 0, count: h * w), norm = 0.0
        for ky in 0..<h {
            for kx in 0..<w {
                var s = 0.0
                for dy in -1...1 {
                    for dx in -1...1 { s += power[((ky + dy + h) % h) * w + (kx + dx + w) % w] }
                }
                summed[ky * w + kx] = s
                norm += s * s
            }
        }
        norm = norm.squareRoot()
        return norm > 0 ? summed.map { $0 / norm } : nil
    }

    /// The least of window `index`'s four quarters' mean absolute
    /// differences between neighbours (across and down), as a share of the
    /// most: a tone spreads its detail over the window, a line or a border
    /// crossing it does not. The same for a window and its mirror image.
    package static func evenness(_ strip: Strip, index: Int) -> Double {
        let w = columns, (hh, hw) = (window / 2, columns / 2)
        return strip.levels.withUnsafeBufferPointer { levels in
            let rows = levels.baseAddress! + index * step * w
            var quarters: [Double] = []
            for (top, left) in [(0, 0), (0, hw), (hh, 0), (hh, hw)] {
                var across = 0, down = 0
                for y in top..<(top + hh) {
                    for x in left..<(left + hw - 1) { across += abs(Int(rows[y * w + x + 1]) - Int(rows[y * w + x])) }
                }
                for y in top..<(top + hh - 1) {
                    for x in left..<(left + hw) { down += abs(Int(rows[(y + 1) * w + x]) - Int(rows[y * w + x])) }
                }
                quarters.append(Double(across) / Double(hh * (hw - 1)) + Double(down) / Double((hh - 1) * hw))
            }
            let most = quarters.max()!
            return most > 0 ? quarters.min()! / most : 0
        }
    }

    /// The transform's fixed tables.
    package struct Tables: Sendable {
        /// cos and sin of 2π·k·n/N, at k·N + n: for the rows' transform (N the window's width, k to N/2) and
        /// the columns' (N its height).
        package var rowCos: [Double], rowSin: [Double], columnCos: [Double], columnSin: [Double]
        package var hannRows: [Double], hannColumns: [Double]
        /// The mean of the squared two-dimensional Hann window.
        package var hannPower: Double
        /// Frequencies kept (at least ``lowest`` cycles, scaled to a window 32 wide), by row and column frequency.
        package var high: [Bool]
        /// Column frequencies along the horizontal axis (within 1.5 cycles, scaled to 32).
        package var flat: [Bool]

        package static let shared = Tables()

        package init() {
            let (h, w) = (ToneTexture.window, ToneTexture.columns)
            // Rounded to 1/65,536, so every machine's tables are the same.
            func rounded(_ v: Double) -> Double { (v * 65536).rounded() / 65536 }
            func twiddles(_ n: Int, _ frequencies: Int) -> ([Double], [Double]) {
                let turns = (0..<(frequencies * n)).map { 2 * Double.pi * Double((($0 / n) * ($0 % n)) % n) / Double(n) }
                return (turns.map { rounded(cos($0)) }, turns.map { rounded(sin($0)) })
            }
            func hann(_ n: Int) -> [Double] {
                (0..<n).map { rounded(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n - 1))) }
            }
            (rowCos, rowSin) = twiddles(w, w / 2 + 1)
            (columnCos, columnSin) = twiddles(h, h)
            (hannRows, hannColumns) = (hann(h), hann(w))
            hannPower = (hannRows.map { $0 * $0 }.reduce(0, +) / Double(h)) * (hannColumns.map { $0 * $0 }.reduce(0, +) / Double(w))
            /// A frequency index as signed cycles, scaled to a window 32 long.
            func cycles(_ k: Int, _ n: Int) -> Double { Double(k < (n + 1) / 2 ? k : k - n) * 32 / Double(n) }
            high = (0..<(h * w)).map { i in
                let (fy, fx) = (cycles(i / w, h), cycles(i % w, w))
                return (fy * fy + fx * fx).squareRoot() >= ToneTexture.lowest
            }
            flat = (0..<w).map { abs(cycles($0, w)) < 1.5 }
        }
    }
}
