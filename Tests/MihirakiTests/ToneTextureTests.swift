import Foundation
@testable import Mihiraki
@testable import MihirakiAnalysis
import Testing

/// Tones unlike (docs/pairing.md, "Tones unlike") on spreads drawn as
/// functions of the picture's position: each page's strip is cut from the
/// spread as the decoder gives it (full-resolution columns, column 0 at the
/// page's edge, 1/256 levels).
@Suite("Automatic pairing: tones unlike")
struct ToneTextureTests {
    /// Paper (235) and ink (25) at a point of a spread.
    typealias Picture = @Sendable (_ x: Double, _ y: Double) -> Int32

    /// A dot screen: `pitch` pixels, turned by `degrees`.
    static func dots(pitch: Double, degrees: Double) -> Picture {
        let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        return { x, y in
            let (u, v) = ((x * c + y * s) * 2 * .pi / pitch, (-x * s + y * c) * 2 * .pi / pitch)
            return sin(u) + sin(v) > 0 ? 235 : 25
        }
    }

    /// A line screen: `pitch` pixels, the lines turned by `degrees` from the vertical.
    static func lines(pitch: Double, degrees: Double) -> Picture {
        let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        return { x, y in sin((x * c + y * s) * 2 * .pi / pitch) > 0 ? 235 : 25 }
    }

    /// Panel borders 4 rows thick every 200 rows on paper.
    static let borders: Picture = { _, y in Int(y) % 200 < 4 ? 25 : 235 }

    /// The strips of the two pages of a spread `height` rows high whose spine
    /// is at x = 0: the left page's right edge and the right page's left
    /// edge, `stored` columns each, each picture drawn over its own page.
    static func facing(_ left: Picture, _ right: Picture, height: Int = 1280, stored: Int = 24,
                       shift: Double = 0) -> (ToneTexture.Strip, ToneTexture.Strip) {
        var a = [Int32](repeating: 0, count: height * stored), b = a
        for y in 0..<height {
            for k in 0..<stored {
                a[y * stored + k] = 256 * left(Double(-1 - k), Double(y))
                b[y * stored + k] = 256 * right(Double(k), Double(y) + shift)
            }
        }
        return (ToneTexture.strip(a, stored: stored, height: height), ToneTexture.strip(b, stored: stored, height: height))
    }

    @Test("One tone crossing the spine is one tone, shifted by a scan or scanned larger; a dot tone facing a line tone, or a tone of another pitch, is not")
    func oneToneOrTwo() throws {
        let steep = Self.facing(Self.lines(pitch: 5, degrees: 75), Self.lines(pitch: 5, degrees: 75)).1
        for (tone, name) in [(Self.dots(pitch: 6, degrees: 45), "dots"), (Self.lines(pitch: 5, degrees: 30), "lines")] {
            let (a, b) = Self.facing(tone, tone, shift: 3)
            let same = try #require(ToneTexture.unlike(a, b, outgoingIsRight: true), "\(name): no toned window")
            #expect(same.share == 0 && same.windows >= 100, "\(name): \(same)")
            #expect(ToneTexture.adjustment(same) == 50)
            // Scanned at twice the size, the strips hold the same tone once brought to the canonical height.
            let (large, largeB) = Self.facing({ x, y in tone(x / 2, y / 2) }, { x, y in tone(x / 2, y / 2) }, height: 2560, stored: 48)
            #expect(ToneTexture.unlike(large, largeB, outgoingIsRight: true)?.share == 0)
            #expect(ToneTexture.unlike(large, steep, outgoingIsRight: true)?.share == 1000)
        }
        let (dots, lines) = Self.facing(Self.dots(pitch: 6, degrees: 45), Self.lines(pitch: 5, degrees: 30))
        let two = try #require(ToneTexture.unlike(dots, lines, outgoingIsRight: true))
        #expect(two.share == 1000 && two.windows >= 100, "\(two)")
        #expect(ToneTexture.adjustment(two) == -210)
        let (fine, coarse) = Self.facing(Self.dots(pitch: 4.5, degrees: 45), Self.dots(pitch: 9, degrees: 45))
        #expect(ToneTexture.unlike(fine, coarse, outgoingIsRight: true)?.share == 1000)
    }

    @Test("A slanted line tone crossing the spine is one tone; mirrored at the spine (a herringbone) it is two: each strip is read as it lies in the picture, a right edge's from the edge inwards")
    func rightEdgesMirrored() throws {
        let slanted = Self.lines(pitch: 6, degrees: 35), mirrored: Picture = { x, y in slanted(-x, y) }
        // Left to right the first page is the left one and shows its right edge; right to left the first
        // page is the right one and shows its left edge.
        func unlike(_ spread: (ToneTexture.Strip, ToneTexture.Strip), leftToRight: Bool) -> ToneTexture.Unlike? {
            leftToRight ? ToneTexture.unlike(spread.0, spread.1, outgoingIsRight: true)
                : ToneTexture.unlike(spread.1, spread.0, outgoingIsRight: false)
        }
        for leftToRight in [true, false] {
            #expect(unlike(Self.facing(slanted, slanted), leftToRight: leftToRight)?.share == 0)
            let herringbone = try #require(unlike(Self.facing(slanted, mirrored), leftToRight: leftToRight))
            #expect(herringbone.share >= 900, "\(herringbone)")
        }
    }

    @Test("Paper, panel borders and a single line are no tone: nothing to compare")
    func noTone() {
        let paper: Picture = { _, _ in 235 }
        #expect(ToneTexture.unlike(Self.facing(paper, paper).0, Self.facing(paper, paper).1, outgoingIsRight: true) == nil)
        let (a, b) = Self.facing(Self.borders, Self.borders)
        #expect(ToneTexture.unlike(a, b, outgoingIsRight: true) == nil)
        let line: Picture = { x, y in abs(y - 600 - 2 * x) < 2 ? 25 : 235 }
        let (c, d) = Self.facing(line, Self.dots(pitch: 6, degrees: 45))
        #expect(ToneTexture.unlike(c, d, outgoingIsRight: true) == nil)
    }

    @Test("The adjustment: 0.3 times the share over 0.3 off, in full from 8 windows; up to 0.05 on where the share is under 0.05, in full from 16")
    func adjustment() {
        #expect(ToneTexture.adjustment(.init(share: 300, windows: 20)) == 0)
        #expect(ToneTexture.adjustment(.init(share: 1000, windows: 8)) == -210)
        #expect(ToneTexture.adjustment(.init(share: 1000, windows: 4)) == -105)
        #expect(ToneTexture.adjustment(.init(share: 500, windows: 40)) == -60)
        #expect(ToneTexture.adjustment(.init(share: 50, windows: 40)) == 0)
        #expect(ToneTexture.adjustment(.init(share: 0, windows: 16)) == 50)
        #expect(ToneTexture.adjustment(.init(share: 0, windows: 4)) == 12)
        #expect(ToneTexture.adjustment(.init(share: 25, windows: 100)) == 25)
    }
}
