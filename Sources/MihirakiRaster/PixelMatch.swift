/// Perceptual image comparison with pixelmatch's semantics: YIQ colour
/// distance against `35215 · threshold²` (or ΔE00 or local SSIM, see
/// ``ComparisonMetric``), semi-transparent colours blended over white, and
/// anti-aliased pixels (Vysniauskas 2009) detected and not counted unless
/// asked. With pixelmatch's metric, counts equal pixelmatch's on the same pair.
///
/// Identical pixels are skipped as whole 32-bit words before any colour math,
/// and identical rows with one `memcmp`, so near-identical images cost little
/// more than reading them.
package enum PixelMatch {
    package struct Options: Sendable {
        /// What makes a pixel differ.
        package var metric = ComparisonMetric.pixelmatch
        /// On the metric's scale (``ComparisonMetric/thresholds``); for
        /// pixelmatch 0…1, smaller more sensitive, 0.1 by default.
        package var threshold: Double = 0.1
        /// Count anti-aliased pixels as differences too.
        package var includeAntialiased = false
        /// Opacity of the expected image in the diff picture.
        package var diffAlpha = 0.1

        package init(metric: ComparisonMetric = .pixelmatch, threshold: Double? = nil, includeAntialiased: Bool = false) {
            self.metric = metric
            self.threshold = threshold ?? metric.defaultThreshold
            self.includeAntialiased = includeAntialiased
        }
    }

    /// How many pixels an ignore mask (one byte per pixel, non-zero ignored) leaves out.
    package static func ignoredPixels(_ ignore: [UInt8]?) -> Int {
        ignore?.reduce(0) { $0 + ($1 != 0 ? 1 : 0) } ?? 0
    }

    package struct Result: Sendable, Equatable {
        /// Pixels that differ beyond the threshold and are not anti-aliasing.
        package var differing: Int
        /// Pixels that differ but were judged anti-aliasing.
        package var antialiased: Int
        /// Pixels the mask excluded from the comparison.
        package var ignored: Int = 0
        /// The diff picture, when asked for.
        package var diffImage: PixelBuffer?
    }

    /// Compares two straight-RGBA images of the same size.
    ///
    /// - Parameters:
    ///   - ignore: one byte per pixel, row by row; where non-zero the pixel
    ///     never counts (ignore regions and masks).
    ///   - makeDiff: also draw the diff picture (RGBA): the expected image
    ///     faded to gray, differing pixels red, anti-aliased ones yellow,
    ///     ignored ones tinted blue.
    package static func compare(_ expected: PixelBuffer, _ actual: PixelBuffer, options: Options = Options(),
                               ignore: [UInt8]? = nil, makeDiff: Bool = false) -> Result {
        precondition(expected.channels == 4 && actual.channels == 4, "RGBA images")
        precondition(expected.width == actual.width && expected.height == actual.height, "same size")
        precondition(ignore == nil || ignore!.count == expected.width * expected.height, "one mask byte per pixel")
        let width = expected.width, height = expected.height
        let maxDelta = 35215 * options.threshold * options.threshold
        var differing = 0, antialiased = 0
        let ignoredCount = ignoredPixels(ignore)
        var picture: [UInt8] = !makeDiff ? [] : [UInt8](repeating: 0, count: width * height * 4)
        expected.pixels.withUnsafeBytes { rawA in
            actual.pixels.withUnsafeBytes { rawB in
                let a = rawA.bindMemory(to: UInt32.self), b = rawB.bindMemory(to: UInt32.self)
                let bytesA = rawA.bindMemory(to: UInt8.self), bytesB = rawB.bindMemory(to: UInt8.self)
                let image1 = Image(pixels: bytesA, words: a, width: width, height: height)
                let image2 = Image(pixels: bytesB, words: b, width: width, height: height)
                // Each row told equal or not once: the metrics' scores and the loop below read it.
                let equalRows = (0..<height).map {
                    memcmp(rawA.baseAddress! + $0 * width * 4, rawB.baseAddress! + $0 * width * 4, width * 4) == 0
                }
                var scores = options.metric == .pixelmatch ? nil
                    : MetricScores(metric: options.metric, threshold: options.threshold, expected: rawA, actual: rawB,
                                   width: width, height: height, differs: { !equalRows[$0] })
                for y in 0..<height {
                    let row = y * width
                    let rowEqual = equalRows[y]
                    if rowEqual && !makeDiff { continue }
                    if !rowEqual { scores?.start(row: y, width: width, expected: rawA, actual: rawB) }
                    for x in 0..<width {
                        let i = row + x
                        if let ignore, ignore[i] != 0 {
                            if makeDiff { drawIgnored(image1, i, alpha: options.diffAlpha, into: &picture) }
                            continue
                        }
                        if rowEqual || a[i] == b[i] {
                            if makeDiff { drawGray(image1, i, alpha: options.diffAlpha, into: &picture) }
                            continue
                        }
                        let exceeds = scores?.exceeds(x: x, i: i)
                            ?? (colorDelta(image1, i, image2, i, brightnessOnly: false) > maxDelta)
                        if exceeds {
                            if !options.includeAntialiased
                                && (isAntialiased(image1, x, y, other: image2) || isAntialiased(image2, x, y, other: image1)) {
                                antialiased += 1
                                if makeDiff { draw(255, 255, 0, at: i, into: &picture) }
                            } else {
                                differing += 1
                                if makeDiff { draw(255, 0, 0, at: i, into: &picture) }
                            }
                        } else if makeDiff {
                            drawGray(image1, i, alpha: options.diffAlpha, into: &picture)
                        }
                    }
                }
            }
        }
        let image = makeDiff ? PixelBuffer(width: width, height: height, channels: 4, pixels: picture) : nil
        return Result(differing: differing, antialiased: antialiased, ignored: ignoredCount, diffImage: image)
    }

    struct Image {
        let pixels: UnsafeBufferPointer<UInt8>
        let words: UnsafeBufferPointer<UInt32>
        let width: Int
        let height: Int
    }

    @inline(__always) static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }
    @inline(__always) static func luma(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    /// Squared YIQ distance of two pixels, or the signed brightness difference.
    static func colorDelta(_ img1: Image, _ k: Int, _ img2: Image, _ m: Int, brightnessOnly: Bool) -> Double {
        if img1.words[k] == img2.words[m] { return 0 }
        var r1 = Double(img1.pixels[4 * k]), g1 = Double(img1.pixels[4 * k + 1]), b1 = Double(img1.pixels[4 * k + 2])
        var r2 = Double(img2.pixels[4 * m]), g2 = Double(img2.pixels[4 * m + 1]), b2 = Double(img2.pixels[4 * m + 2])
        let a1 = img1.pixels[4 * k + 3], a2 = img2.pixels[4 * m + 3]
        if a1 < 255 {
            let alpha = Double(a1) / 255
            r1 = blend(r1, alpha); g1 = blend(g1, alpha); b1 = blend(b1, alpha)
        }
        if a2 < 255 {
            let alpha = Double(a2) / 255
            r2 = blend(r2, alpha); g2 = blend(g2, alpha); b2 = blend(b2, alpha)
        }
        let y = luma(r1, g1, b1) - luma(r2, g2, b2)
        if brightnessOnly { return y }
        let i = (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189) - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let q = (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694) - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// Whether pixel (x1, y1) of `img` looks like anti-aliasing: it has both a
    /// darker and a brighter neighbour, and one of those sits in a flat area
    /// in both images.
    static func isAntialiased(_ img: Image, _ x1: Int, _ y1: Int, other: Image) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, img.width - 1), y2 = min(y1 + 1, img.height - 1)
        let center = y1 * img.width + x1
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let delta = colorDelta(img, center, img, y * img.width + x, brightnessOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minX = x; minY = y
                } else if delta > maxDelta {
                    maxDelta = delta; maxX = x; maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minX, minY) && hasManySiblings(other, minX, minY))
            || (hasManySiblings(img, maxX, maxY) && hasManySiblings(other, maxX, maxY))
    }

    /// Whether a pixel has three or more identical neighbours.
    static func hasManySiblings(_ img: Image, _ x1: Int, _ y1: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, img.width - 1), y2 = min(y1 + 1, img.height - 1)
        let center = img.words[y1 * img.width + x1]
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                if img.words[y * img.width + x] == center { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    @inline(__always) static func draw(_ r: UInt8, _ g: UInt8, _ b: UInt8, at i: Int, into picture: inout [UInt8]) {
        picture[4 * i] = r; picture[4 * i + 1] = g; picture[4 * i + 2] = b; picture[4 * i + 3] = 255
    }

    /// An ignored pixel: the faded expected pixel, tinted blue, so the
    /// excluded area is visible and still recognisable.
    static func drawIgnored(_ img: Image, _ i: Int, alpha: Double, into picture: inout [UInt8]) {
        drawGray(img, i, alpha: alpha, into: &picture)
        picture[4 * i] = picture[4 * i] / 2 + 40
        picture[4 * i + 1] = picture[4 * i + 1] / 2 + 70
        picture[4 * i + 2] = picture[4 * i + 2] / 2 + 120
    }

    static func drawGray(_ img: Image, _ i: Int, alpha: Double, into picture: inout [UInt8]) {
        let r = Double(img.pixels[4 * i]), g = Double(img.pixels[4 * i + 1]), b = Double(img.pixels[4 * i + 2])
        let value = blend(luma(r, g, b), alpha * Double(img.pixels[4 * i + 3]) / 255)
        let v = UInt8(max(0, min(255, Int(value))))
        draw(v, v, v, at: i, into: &picture)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PixelBuffer {
    /// The image as straight RGBA (gray and RGB expanded, alpha 255).
    package var straightRGBA: PixelBuffer {
        if channels == 4 { return self }
        let c = channels
        return PixelBuffer(width: width, height: height, channels: 4) { out in
            pixels.withUnsafeBufferPointer { src in
                let s = src.baseAddress!, d = out.baseAddress!
                for i in 0..<width * height {
                    let p = s + i * c, q = d + i * 4
                    switch c {
                    case 1: q[0] = p[0]; q[1] = p[0]; q[2] = p[0]; q[3] = 255
                    case 2: q[0] = p[0]; q[1] = p[0]; q[2] = p[0]; q[3] = p[1]
                    default: q[0] = p[0]; q[1] = p[1]; q[2] = p[2]; q[3] = 255
                    }
                }
            }
        }
    }
}
