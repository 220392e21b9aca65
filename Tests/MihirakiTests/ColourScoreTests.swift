@testable import Mihiraki
@testable import MihirakiAnalysis
import Testing

/// Colours apart at the spine (docs/pairing.md, "What it measures"), on edge
/// profiles drawn by hand: ``PageEdges/rows`` bands in 1/16 levels, Cb and
/// Cr as ``PageEdges`` computes them from RGB.
@Suite("Automatic pairing: colours apart at the spine")
struct ColourScoreTests {
    static let bands = PageEdges.rows

    /// Luma, Cb and Cr of an RGB colour in 1/16 levels, as PageEdges takes them from a pixel.
    static func ycc(_ rgb: (Double, Double, Double)) -> (Int32, Int32, Int32) {
        let (r, g, b) = (Int32(rgb.0.rounded()), Int32(rgb.1.rounded()), Int32(rgb.2.rounded()))
        return ((77 * r + 150 * g + 29 * b) / 16, (-43 * r - 85 * g + 128 * b + 128 * 256) / 16, (128 * r - 107 * g - 21 * b + 128 * 256) / 16)
    }

    /// An edge whose band `y` shows `colour(y)`, seen through a scan: times `gain`, plus `offset`, `shift` bands lower.
    static func profile(_ colour: (Int) -> (Double, Double, Double), gain: Double = 1, offset: Double = 0,
                        shift: Int = 0) -> (luma: [Int32], cb: [Int32], cr: [Int32]) {
        let values = (0..<bands).map { y -> (Int32, Int32, Int32) in
            let c = colour(min(bands - 1, max(0, y - shift)))
            func scanned(_ v: Double) -> Double { max(0, min(255, v * gain + offset)) }
            return ycc((scanned(c.0), scanned(c.1), scanned(c.2)))
        }
        return (values.map(\.0), values.map(\.1), values.map(\.2))
    }

    static func edge(_ p: (luma: [Int32], cb: [Int32], cr: [Int32])) -> ColourScore.Edge { .init(cb: p.cb, cr: p.cr) }

    /// Sky, a band of orange, then grass, each with a ramp in brightness.
    static func landscape(_ y: Int) -> (Double, Double, Double) {
        let t = Double(y % 170) / 170
        if y < 200 { return (60 + 40 * t, 120 + 40 * t, 220) }
        if y < 330 { return (230, 140 - 30 * t, 40) }
        return (40 + 30 * t, 160 - 40 * t, 60)
    }

    /// The same brightness as the landscape, in other hues: purple sky, teal band, red ground.
    static func otherHues(_ y: Int) -> (Double, Double, Double) {
        let (r, g, b) = landscape(y), luma = 0.3 * r + 0.59 * g + 0.11 * b
        if y < 200 { return (luma + 40, luma - 30, luma + 60) }
        if y < 330 { return (luma - 60, luma + 25, luma + 40) }
        return (luma + 50, luma - 25, luma - 30)
    }

    @Test("The two halves of one artwork are not apart, one half darker (a gutter shadow), brighter by an offset and shifted")
    func oneArtwork() {
        let a = Self.edge(Self.profile(Self.landscape))
        for (gain, offset, shift) in [(1.0, 0.0, 0), (0.55, 0.0, 3), (0.9, 6.0, -4), (1.05, -6.0, 2)] {
            let b = Self.edge(Self.profile(Self.landscape, gain: gain, offset: offset, shift: shift))
            let apart = ColourScore.apart(a, b)
            #expect(apart < 40 && ColourScore.penalty(apart) == 0, "gain \(gain), offset \(offset), shift \(shift): \(apart)")
        }
    }

    @Test("Tones that rise and fall together in other hues are apart; one colour against gray is apart; gray against gray is not")
    func apart() {
        let landscape = Self.edge(Self.profile(Self.landscape))
        #expect(ColourScore.apart(landscape, Self.edge(Self.profile(Self.otherHues))) > 500)
        let gray = Self.edge(Self.profile { y in (Double(80 + y / 4), Double(80 + y / 4), Double(80 + y / 4)) })
        let grayish = Self.edge(Self.profile { y in (Double(200 - y / 4), Double(198 - y / 4), Double(203 - y / 4)) })
        #expect(ColourScore.apart(landscape, gray) > 900)
        #expect(ColourScore.apart(gray, grayish) == 0)
    }

    @Test("In the detector, pages whose luma continues at the spine are a split in one palette and not in two")
    func detector() throws {
        // Luma with detail all along the spine: rules every 24 bands over the landscape.
        func page(_ colour: @escaping (Int) -> (Double, Double, Double), shift: Int = 0) -> PageEdges {
            let ruled: (Int) -> (Double, Double, Double) = { y in
                let c = colour(y), dark = y % 24 < 3 ? 0.4 : 1.0
                return (c.0 * dark, c.1 * dark, c.2 * dark)
            }
            let p = Self.profile(ruled, shift: shift)
            return PageEdges(channels: [.init(left: p.luma, right: p.luma), .init(left: p.cb, right: p.cb), .init(left: p.cr, right: p.cr)])
        }
        let same = SplitDetector.detect([page(Self.landscape), page(Self.landscape, shift: 2)], direction: .ltr) { _ in true }
        let other = SplitDetector.detect([page(Self.landscape), page(Self.otherHues, shift: 2)], direction: .ltr) { _ in true }
        let split = try #require(same.first), apart = try #require(other.first)
        #expect(split.isSplit && (split.coloursApart ?? 1000) < 40, "\(split)")
        #expect(!apart.isSplit && (apart.coloursApart ?? 0) > 500 && apart.confidence < split.confidence - 500, "\(apart)")
    }

    @Test("In the detector, a colour that continues at the spine on its own makes a split where luma and the other colour only carry noise")
    func chromaAlone() throws {
        // Deterministic noise, a few levels either way (in 1/16 levels), different on each page.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise(_ levels: Int32) -> [Int32] {
            (0..<Self.bands).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int32(truncatingIfNeeded: state >> 33) % (16 * levels)
            }
        }
        // A hue that turns at one brightness: blue to yellow and back, in steps of 6 to 40 bands.
        var hue: [Int32] = [], level: Int32 = 16 * 128
        while hue.count < Self.bands {
            level = 16 * 100 + (level + 16 * 37) % (16 * 60)
            hue += [Int32](repeating: level, count: 6 + hue.count % 35)
        }
        hue = Array(hue.prefix(Self.bands))
        func page(cb: [Int32]) -> PageEdges {
            let luma = noise(4).map { 16 * 128 + $0 }, cr = noise(4).map { 16 * 128 + $0 }
            return PageEdges(channels: [.init(left: luma, right: luma), .init(left: cb, right: cb), .init(left: cr, right: cr)])
        }
        let shifted = [Int32](repeating: hue[0], count: 2) + hue.dropLast(2)
        let seams = SplitDetector.detect([page(cb: hue), page(cb: shifted)], direction: .ltr) { _ in true }
        let split = try #require(seams.first)
        #expect(split.isSplit && split.score > 800 && split.levels > 800, "\(split)")
        // The same hue on one page against another turning at other heights: no split.
        let other = SplitDetector.detect([page(cb: hue), page(cb: hue.reversed())], direction: .ltr) { _ in true }
        #expect(other.allSatisfy { !$0.isSplit }, "\(other)")
    }
}
