import Foundation
@testable import Mihiraki
@testable import MihirakiAnalysis
import Testing

@Suite("Automatic pairing: the strip measures' adjustment and tones")
struct StripScoreToneTests {
    static let depth = StripScore.depth, bands = StripScore.bands

    @Test("The adjustment: paper against ink lowers, continuing lines and edges raise (lines that do not continue lower gray pages from 0.4, colour pages only from 0.1), broken borders lower, tones in proportion raise and out of it lower, too few say nothing")
    func adjustment() {
        #expect(StripScore.adjustment(ink: 20, lines: nil) == 0)
        #expect(StripScore.adjustment(ink: 70, lines: nil) == -100)
        #expect(StripScore.adjustment(ink: 0, lines: 900) == 1000)
        #expect(StripScore.adjustment(ink: 0, lines: 450) == 100)
        #expect(StripScore.adjustment(ink: 0, lines: 400) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: 0) == -120)
        #expect(StripScore.adjustment(ink: 0, lines: nil, borders: 1000) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: nil, borders: 500) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: nil, borders: 400) == -50)
        #expect(StripScore.adjustment(ink: 0, lines: nil, borders: 0) == -250)
        #expect(StripScore.adjustment(ink: 0, lines: 900, borders: 100) == 800)
        #expect(StripScore.adjustment(ink: 0, lines: nil, edges: 800) == 100)
        #expect(StripScore.adjustment(ink: 0, lines: nil, edges: 0) == -60)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 0) == 60)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 3) == 30)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 5) == 10)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 6) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 15) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 65) == -400)
        // Flat edges keep any proportion: no bonus under the flat range, the penalty as before.
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 0, toneRange: 1) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 0, toneRange: 2) == 60)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 3, toneRange: 40) == 30)
        #expect(StripScore.adjustment(ink: 0, lines: nil, proportion: 65, toneRange: 0) == -400)
        // Both pages in colour: lines that do not continue lower a seam only under the colour knee; the rise is as on gray pages.
        #expect(StripScore.adjustment(ink: 0, lines: 0, colour: true) == -30)
        #expect(StripScore.adjustment(ink: 0, lines: 50, colour: true) == -15)
        #expect(StripScore.adjustment(ink: 0, lines: StripScore.colourLinesKnee, colour: true) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: 250, colour: true) == 0)
        #expect(StripScore.adjustment(ink: 0, lines: 250) == -45)
        #expect(StripScore.adjustment(ink: 0, lines: 450, colour: true) == 100)
    }

    @Test("Tones in one order and one proportion: the levels over 0.9 count, up to 0.1, only where the tones keep one proportion and neither edge is flat")
    func inOrderAndProportion() {
        #expect(StripScore.inOrderAndProportion(levels: 1000, proportion: 0, toneRange: 50) == 100)
        #expect(StripScore.inOrderAndProportion(levels: 986, proportion: 3, toneRange: 50) == 86)
        #expect(StripScore.inOrderAndProportion(levels: 986, proportion: 6, toneRange: nil) == 86)
        #expect(StripScore.inOrderAndProportion(levels: 900, proportion: 0, toneRange: 50) == 0)
        #expect(StripScore.inOrderAndProportion(levels: 700, proportion: 0, toneRange: 50) == 0)
        // Out of proportion, too dark to tell, or flat (white paper on both sides): nothing.
        #expect(StripScore.inOrderAndProportion(levels: 1000, proportion: 7, toneRange: 50) == 0)
        #expect(StripScore.inOrderAndProportion(levels: 1000, proportion: nil, toneRange: 50) == 0)
        #expect(StripScore.inOrderAndProportion(levels: 1000, proportion: 0, toneRange: 1) == 0)
    }

    @Test("The rivals' shortfall counts in full until half of the lines at the spine continue, and not at all from there")
    func rivalsCount() {
        #expect(StripScore.rivalsCount(lines: nil) == 1000)
        #expect(StripScore.rivalsCount(lines: 0) == 1000)
        #expect(StripScore.rivalsCount(lines: 400) == 1000)
        #expect(StripScore.rivalsCount(lines: 450) == 500)
        #expect(StripScore.rivalsCount(lines: 500) == 0)
        #expect(StripScore.rivalsCount(lines: 1000) == 0)
    }

    /// A strip whose level at band y and column k is `level(y, k)` (levels, 0–255).
    static func drawn(_ level: (Int, Int) -> Double) -> [Int32] {
        var strip = [Int32](repeating: 0, count: bands * depth)
        for y in 0..<bands {
            for k in 0..<depth { strip[y * depth + k] = Int32((16 * level(y, k)).rounded()) }
        }
        return strip
    }

    /// A picture's tone down the page: light at the top, darker below, with a
    /// soft dark horizon (a band of trees) at `horizon`.
    static func scene(_ y: Int, horizon: Int) -> Double {
        let d = Double(y - horizon) / 14
        return 200 - 0.2 * Double(y) - 90 * Foundation.exp(-d * d)
    }

    @Test("Tones out of proportion: one picture under another exposure and a gutter shadow is in proportion; two crops of it at other heights are not; a page whose own tones change as fast across its columns is held to them; black edges say nothing")
    func outOfProportion() {
        let picture = Self.drawn { y, _ in Self.scene(y, horizon: 240) }
        // The other half of the same picture, darker by a third at the spine (a gutter shadow and an exposure).
        let shaded = Self.drawn { y, k in Self.scene(y, horizon: 240) * (0.66 + 0.34 * Double(min(k, 12)) / 12) }
        #expect(StripScore.outOfProportion(picture, shaded) == 0)
        #expect(StripScore.outOfProportion(shaded, picture) == 0)
        // The same picture cropped 80 bands lower: its horizon meets the other page's sky.
        let lower = Self.drawn { y, _ in Self.scene(y, horizon: 320) }
        let apart = StripScore.outOfProportion(picture, lower)
        #expect(apart.map { $0 > StripScore.proportionKnee } == true, "\(String(describing: apart))")
        // A page whose horizon climbs as steeply across its own 24 columns as it
        // moves across the spine: what its own columns show is what the pair is held to.
        let slanted = Self.drawn { y, k in Self.scene(y, horizon: 240 + 4 * k) }
        let climbing = Self.drawn { y, k in Self.scene(y, horizon: 240 - 4 * k - 28) }
        let across = StripScore.proportionSpread(StripScore.proportionProfile(slanted, 0), StripScore.proportionProfile(climbing, 0))
        #expect(across.map { $0 > StripScore.proportionKnee } == true, "\(String(describing: across))")
        #expect(StripScore.outOfProportion(slanted, climbing).map { $0 <= StripScore.proportionKnee } == true,
                "\(String(describing: StripScore.outOfProportion(slanted, climbing)))")
        let black = Self.drawn { _, _ in 8 }
        #expect(StripScore.outOfProportion(black, picture) == nil)
    }

    @Test("Tones in proportion at a shift: bands of a picture scanned 3 bands lower on the other page are out of proportion band by band and in it at their shift; two crops at other heights stay out of it")
    func proportionAtShift() throws {
        let stripes = { (y: Int, shift: Int) in 140 + 70 * Foundation.sin(2 * Double.pi * Double(y + shift) / 32) }
        let page = Self.drawn { y, _ in stripes(y, 0) }
        let lower = Self.drawn { y, _ in 0.8 * stripes(y, 3) }
        let unshifted = try #require(StripScore.outOfProportion(page, lower))
        #expect(unshifted > StripScore.proportionKnee, "\(unshifted)")
        #expect(StripScore.outOfProportion(page, lower, maxShift: StripScore.proportionShift) == 0)
        #expect(StripScore.outOfProportion(lower, page, maxShift: StripScore.proportionShift) == 0)
        let picture = Self.drawn { y, _ in Self.scene(y, horizon: 240) }
        let cropped = Self.drawn { y, _ in Self.scene(y, horizon: 320) }
        let apart = try #require(StripScore.outOfProportion(picture, cropped, maxShift: StripScore.proportionShift))
        #expect(apart > StripScore.proportionKnee, "\(apart)")
        // Shifts that leave no band to compare say nothing.
        #expect(StripScore.proportionSpread(StripScore.proportionProfile(page, 0), StripScore.proportionProfile(lower, 0),
                                            shift: StripScore.bands) == nil)
    }

    @Test("Tone range: white paper with its grain and a gutter shadow is flat; a picture's sky and horizon are not; a black edge says nothing")
    func toneRange() {
        // Paper at 236–238 levels in a pattern of grain, darker by a third toward the spine.
        let paper = Self.drawn { y, k in (236 + Double((y * 7 + k * 3) % 3)) * (0.66 + 0.34 * Double(min(k, 12)) / 12) }
        let range = StripScore.toneRange(paper)
        #expect(range.map { $0 < StripScore.flatRange } == true, "\(String(describing: range))")
        // Against paper the same shaded way, flat edges keep one proportion: without the range, a bonus.
        #expect(StripScore.outOfProportion(paper, paper) == 0)
        let picture = Self.drawn { y, _ in Self.scene(y, horizon: 240) }
        #expect(StripScore.toneRange(picture).map { $0 > 5 * StripScore.flatRange } == true,
                "\(String(describing: StripScore.toneRange(picture)))")
        #expect(StripScore.toneRange(Self.drawn { _, _ in 8 }) == nil)
    }
}
