import Foundation
@testable import Mihiraki
@testable import MihirakiAnalysis
import Testing

/// The strip measures (docs/pairing.md, "The strips") on strips drawn by hand:
/// `StripScore.bands` rows of `StripScore.depth` columns in 1/16 levels,
/// column 0 at the edge.
@Suite("Automatic pairing: the strip measures")
struct StripScoreTests {
    static let depth = StripScore.depth, bands = StripScore.bands

    /// White paper (240), darkened towards the edge by `shadow` levels at column 0 fading over 12 columns,
    /// with `ink` (a level) over the rows in `inked` and the columns in `columns`.
    static func strip(shadow: Int = 0, inked: [Range<Int>] = [], columns: Range<Int> = 0..<depth, ink: Int = 30) -> [Int32] {
        var strip = [Int32](repeating: 0, count: bands * depth)
        for y in 0..<bands {
            for k in 0..<depth {
                var level = 240 - max(0, shadow * (12 - k) / 12)
                if inked.contains(where: { $0.contains(y) }) && columns.contains(k) { level = ink }
                strip[y * depth + k] = Int32(16 * level)
            }
        }
        return strip
    }

    /// Lines one band thick through the edge at `heights`, running `step` tenths of a band a column away from it.
    static func lines(at heights: [Int], step: Int) -> [Int32] {
        lines(heights.map { ($0, step) })
    }

    /// Lines one band thick, each through the edge at its height and running its step away from it.
    static func lines(_ drawn: [(height: Int, step: Int)]) -> [Int32] {
        var strip = strip()
        for (height, step) in drawn {
            for k in 0..<depth {
                let y = height + (step * k + (step >= 0 ? 5 : -5)) / 10
                if y >= 0 && y < bands { strip[y * depth + k] = 16 * 20 }
            }
        }
        return strip
    }

    static func ink(_ a: [Int32], _ b: [Int32]) -> Int { StripScore.paperAgainstInk(.init(a), .init(b)) }
    static func lineMap(_ strip: [Int32]) -> [Int64] { StripScore.lines(.init(strip)) }

    @Test("Each column's white is its 98th percentile, as sorting the column finds it")
    func whiteIsThePercentile() {
        var state: UInt32 = 12345
        let strip = (0..<(Self.bands * Self.depth)).map { _ -> Int32 in
            state = state &* 1_103_515_245 &+ 12345
            return Int32((state >> 16) % 4081)
        }
        let white = StripScore.Strip(strip).white
        for k in 0..<Self.depth {
            let sorted = stride(from: k, to: strip.count, by: Self.depth).map { strip[$0] }.sorted()
            #expect(white[k] == sorted[(Self.bands - 1) * 98 / 100], "column \(k)")
        }
        #expect(StripScore.Strip(Self.strip()).below.allSatisfy { $0 == 0 })
    }

    @Test("The slopes' responses, summed in 32 bits several bands at a time, are the sums in 64 bits, at both fans and at the extremes of the levels")
    func responseIsTheWideSum() {
        /// Each band's darkness summed along each slope, in 64 bits, the position clamped to the strip everywhere.
        func reference(_ strip: [Int32], _ fan: StripScore.Fan) -> [Int64] {
            let shape = StripScore.Strip(strip), (white, below) = (shape.white, shape.below)
            var out = [Int64](repeating: 0, count: fan.count * Self.bands)
            for s in 0..<fan.count where fan.computed.contains(abs(s - fan.count / 2)) {
                for y in 0..<Self.bands {
                    for k in 0..<Self.depth {
                        func dark(_ band: Int) -> Int64 {
                            Int64(below[band * Self.depth + k]) * StripScore.unit / Int64(max(white[k], 16))
                        }
                        let position = min(max(10 * y + (s - fan.count / 2) * k, 0), 10 * (Self.bands - 1))
                        let low = position / 10, tenths = Int64(position % 10)
                        out[s * Self.bands + y] += (10 - tenths) * dark(low) + tenths * dark(min(low + 1, Self.bands - 1))
                    }
                }
            }
            return out
        }
        var state: UInt32 = 2024
        func next() -> UInt32 { state = state &* 1_103_515_245 &+ 12345; return state >> 16 }
        // Random levels; black with white specks past the 98th percentile (a white of 0, taken as 16, under
        // bands 4,080 levels over it: the largest darkness there is); and white with black lines.
        let random = (0..<(Self.bands * Self.depth)).map { _ in Int32(next() % 4081) }
        let specks = (0..<(Self.bands * Self.depth)).map { _ in next() % 100 == 0 ? Int32(4080) : 0 }
        for strip in [random, specks, Self.lines(at: [40, 200, 201, 480], step: 17)] {
            for fan in [StripScore.Fan.lines, .steep] {
                #expect(StripScore.response(.init(strip), fan: fan) == reference(strip, fan))
            }
        }
    }

    @Test("Paper against ink: a gutter facing a filled panel counts, ink facing ink and a gutter shadow do not")
    func paperAgainstInk() {
        // Page a: a panel from 60 to 300 with a gutter over bands 100..<140; page b: one panel from 60 to 300.
        let a = Self.strip(inked: [60..<100, 140..<300])
        let b = Self.strip(inked: [60..<300])
        // 40 gutter bands face ink that holds 4 bands either side: every one of them.
        #expect(Self.ink(a, b) == 40 * 1000 / (2 * Self.bands))
        #expect(Self.ink(b, a) == Self.ink(a, b))
        // The same panel on both pages: nothing.
        #expect(Self.ink(b, b) == 0)
        // A deep gutter shadow is each column's own white, not ink.
        #expect(Self.ink(Self.strip(shadow: 120), Self.strip(shadow: 90)) == 0)
        // Ink only along the edge (a line running down the spine) is not a filled area.
        #expect(Self.ink(Self.strip(), Self.strip(inked: [0..<Self.bands], columns: 0..<4)) == 0)
    }

    @Test("Lines that continue across the spine match; lines at other heights or other slopes do not")
    func linesContinue() throws {
        let heights = [50, 120, 200, 333, 420]
        // A line leaving page a at slope m (tenths of a band a column along a's strip) enters page b at −m.
        let a = Self.lineMap(Self.lines(at: heights, step: 6))
        let continuing = try #require(StripScore.linesContinue(a, Self.lineMap(Self.lines(at: heights, step: -6))))
        #expect(continuing.share >= 900 && continuing.strength > StripScore.lineStrength, "\(continuing)")
        let elsewhere = try #require(StripScore.linesContinue(a, Self.lineMap(Self.lines(at: heights.map { $0 + 30 }, step: -6))))
        #expect(elsewhere.share <= 100, "\(elsewhere)")
        let turned = try #require(StripScore.linesContinue(a, Self.lineMap(Self.lines(at: heights, step: 6))))
        #expect(turned.share <= 100, "\(turned)")
    }

    @Test("Lines at many slopes continue across columns lost at the spine, each entering the other page at its own height")
    func linesAcrossALostStrip() throws {
        // Speed lines at different slopes leave page a; 10 columns are lost between the pages, so the line at
        // step m enters page b at −m, m·10/10 = m bands away from where it left a (step 9: 9 bands).
        let leaving = [(40, 9), (110, -7), (190, 5), (260, -11), (330, 8), (400, -6), (470, 10)]
        let a = Self.lineMap(Self.lines(leaving))
        let b = Self.lineMap(Self.lines(leaving.map { (height, step) in (height - step, -step) }))
        let atTheSpine = try #require(StripScore.linesContinue(a, b))
        #expect(atTheSpine.share <= 250, "\(atTheSpine)")
        // Matched over the gaps tried (0, 2, 5, 7 and 10 columns): at 10, all but what the steepest slopes smear.
        let acrossTheLoss = try #require(StripScore.linesContinue(a, b, lost: 10))
        #expect(acrossTheLoss.share >= 800 && acrossTheLoss.strength == atTheSpine.strength, "\(acrossTheLoss)")
        // A loss the other way (the lines carried the wrong way) or lines elsewhere still do not match.
        let wrongWay = Self.lineMap(Self.lines(leaving.map { (height, step) in (height + step, -step) }))
        #expect(try #require(StripScore.linesContinue(a, wrongWay, lost: 10)).share <= 250)
        let elsewhere = Self.lineMap(Self.lines(leaving.map { (height, step) in (height - step + 30, -step) }))
        #expect(try #require(StripScore.linesContinue(a, elsewhere, lost: 10)).share <= 100)
    }

    @Test("Steep lines (1.1 to 2.9 bands a column) continue across the spine and across columns lost there; at other heights they do not; they count only where they continue")
    func steepLinesContinue() throws {
        // Speed lines nearly along the spine: steps of 1.5 to 2.8 bands a column, each spanning 36 to 67 bands of the strip.
        let leaving = [(40, 15), (120, -20), (200, 28), (300, -17), (380, 24), (460, -22)]
        let a = StripScore.Strip(Self.lines(leaving))
        let across = try #require(StripScore.steepLinesContinue(a, .init(Self.lines(leaving.map { ($0.0, -$0.1) }))))
        #expect(across.share >= 900 && across.strength > StripScore.lineStrength, "\(across)")
        let elsewhere = try #require(StripScore.steepLinesContinue(a, .init(Self.lines(leaving.map { ($0.0 + 30, -$0.1) }))))
        #expect(elsewhere.share <= 100, "\(elsewhere)")
        // Ten columns lost at the spine: the line at step m enters page b m bands from where it left (28 bands at step 28);
        // matched at a loss of 10, all but what the neighbouring steep slopes smear.
        let b = StripScore.Strip(Self.lines(leaving.map { ($0.0 - $0.1, -$0.1) }))
        let atTheSpine = try #require(StripScore.steepLinesContinue(a, b))
        #expect(atTheSpine.share <= 250, "\(atTheSpine)")
        let acrossTheLoss = try #require(StripScore.steepLinesContinue(a, b, lost: 10))
        #expect(acrossTheLoss.share >= 750, "\(acrossTheLoss)")
        // Shallow lines are the lines' measure, not the steep lines'.
        let shallow = Self.lines(at: [60, 180, 300, 420], step: 6)
        #expect(StripScore.steepLinesContinue(.init(shallow), .init(Self.lines(at: [60, 180, 300, 420], step: -6)))
            .map { $0.strength <= StripScore.lineStrength } ?? true)
        // Steep lines that continue raise a seam as lines do over 0.4; under it they say nothing.
        #expect(StripScore.steepLinesAdjustment(nil) == 0)
        #expect(StripScore.steepLinesAdjustment(0) == 0)
        #expect(StripScore.steepLinesAdjustment(400) == 0)
        #expect(StripScore.steepLinesAdjustment(700) == 600)
        #expect(StripScore.steepLinesAdjustment(1000) == 1200)
    }

    @Test("The detector searches the same lost strip, 12 of the strips' columns, on every page: the strips' columns are shares of the height")
    func lostStripIsAShareOfTheHeight() throws {
        // 12 columns lost: the line at step m enters page b 1.2·m bands from where it left page a.
        let leaving = [(40, 9), (110, -7), (190, 5), (260, -11), (330, 8), (400, -6), (470, 10)]
        let a = Self.lines(leaving), b = Self.lines(leaving.map { (height, step) in (height - 12 * step / 10, -step) })
        func page(_ strip: [Int32]) -> PageEdges {
            var page = PageEdges(channels: [.init(left: [Int32](repeating: 16 * 240, count: PageEdges.rows),
                                                  right: [Int32](repeating: 16 * 240, count: PageEdges.rows))])
            page.strips = .init(left: strip, right: strip)
            return page
        }
        let strips = try #require(SplitDetector.strips(page(a), page(b), direction: .ltr))
        #expect(StripScore.lostColumns == 12 && (strips.lines ?? 0) >= 750, "\(strips)")
    }

    /// Stripes between boundaries through the edge at their heights, each running its step away from it:
    /// paper (240) above the first, then ink (80) and paper in turn (inverted: ink first).
    static func stripes(_ boundaries: [(height: Int, step: Int)], inverted: Bool = false) -> [Int32] {
        var strip = strip()
        for y in 0..<bands {
            for k in 0..<depth {
                let crossed = boundaries.filter { y >= $0.height + ($0.step * k + ($0.step >= 0 ? 5 : -5)) / 10 }.count
                if (crossed % 2 == 1) != inverted { strip[y * depth + k] = 16 * 80 }
            }
        }
        return strip
    }

    static func edgeMaps(_ strip: [Int32]) -> (lighter: [Int64], darker: [Int64]) {
        StripScore.edges(response: StripScore.response(.init(strip)))
    }

    @Test("Edges of areas continue across columns lost at the spine, lighter below as lighter below; other heights or turned tones do not")
    func edgesContinue() throws {
        // A dark band between two slanted boundaries, and a third boundary: 12 columns lost at the spine.
        let leaving = [(110, 9), (240, -10), (390, 8)]
        let a = Self.edgeMaps(Self.stripes(leaving))
        let entering = leaving.map { (height, step) in (height - (step * 12 + (step >= 0 ? 5 : -5)) / 10, -step) }
        let b = Self.edgeMaps(Self.stripes(entering))
        let acrossTheLoss = try #require(StripScore.edgesContinue(a, b, lost: 12))
        #expect(acrossTheLoss.share >= 750 && acrossTheLoss.strength > StripScore.edgeStrength, "\(acrossTheLoss)")
        let atTheSpine = try #require(StripScore.edgesContinue(a, b))
        #expect(atTheSpine.share < acrossTheLoss.share - 300, "\(atTheSpine)")
        // The same boundaries with the tones turned: where a turns lighter, b turns darker.
        let turned = try #require(StripScore.edgesContinue(a, Self.edgeMaps(Self.stripes(entering, inverted: true)), lost: 12))
        #expect(turned.share <= 100, "\(turned)")
        let elsewhere = Self.edgeMaps(Self.stripes(entering.map { ($0.0 + 30, $0.1) }))
        #expect(try #require(StripScore.edgesContinue(a, elsewhere, lost: 12)).share <= 100)
        // The lines' map is the edges' response less its ring: unchanged by taking the response first.
        let strip = Self.stripes(leaving)
        #expect(StripScore.lines(.init(strip)) == StripScore.lines(response: StripScore.response(.init(strip))))
    }

    @Test("A line tone's parallel lines and flat panel borders are no lines to match")
    func tonesAndBordersAreNoLines() {
        // Lines every 3 bands at one slope on both pages: each answers 4-10 bands away too.
        let tone = Self.lineMap(Self.lines(at: Array(stride(from: 0, to: Self.bands, by: 3)), step: 6))
        let mirrored = Self.lineMap(Self.lines(at: Array(stride(from: 0, to: Self.bands, by: 3)), step: -6))
        #expect(StripScore.linesContinue(tone, mirrored).map { $0.strength <= StripScore.lineStrength } ?? true)
        // Panel borders, flat, at the same heights on both pages: what little the slopes next to flat see does not count.
        let borders = Self.lineMap(Self.lines(at: [40, 180, 330, 470], step: 0))
        #expect(StripScore.linesContinue(borders, borders).map { $0.strength <= StripScore.lineStrength } ?? true)
    }

    @Test("Flat borders at the same heights continue; borders at other heights on either page do not; steep lines are no borders")
    func bordersContinue() throws {
        // Panel borders two bands thick across the strip.
        func borders(_ heights: [Int]) -> [Int64] { Self.lineMap(Self.lines(heights.flatMap { [($0, 0), ($0 + 1, 0)] })) }
        let layout = [60, 190, 330, 450]
        let same = try #require(StripScore.bordersContinue(borders(layout), borders(layout.map { $0 + 2 })))
        #expect(same.share >= 900 && same.strength > StripScore.borderStrength, "\(same)")
        // The other page's rows 12 to 40 bands away: at similar heights, and none of them continues.
        let other = try #require(StripScore.bordersContinue(borders(layout), borders([72, 160, 350, 490])))
        #expect(other.share <= 100 && other.strength > StripScore.borderStrength, "\(other)")
        // Speed lines are the lines' measure, not the borders'.
        let steep = Self.lineMap(Self.lines(at: layout, step: 7))
        #expect(StripScore.bordersContinue(steep, steep).map { $0.strength <= StripScore.borderStrength } ?? true)
    }

    /// Panel borders 2 bands thick centred at `heights` (fractions of a band), running `step` bands a column away
    /// from the edge, on white paper: each band's level from how much of it the line covers.
    static func borders(_ heights: [Double], step: Double = 0) -> [Int32] {
        StripScoreToneTests.drawn { y, k in
            let covered = heights.reduce(0.0) { sum, height in
                let centre = height + step * Double(k)
                return sum + max(0, min(Double(y + 1), centre + 1) - max(Double(y), centre - 1))
            }
            return 240 - 220 * min(1, covered)
        }
    }

    @Test("Flat edges: where paper across the strip meets a solid flat line, at the height the columns cross half their white; sloped lines are not flat edges")
    func flatEdges() {
        let edges = StripScore.flatEdges(.init(Self.borders([100.3, 250.6])))
        // Each border has paper above and below: ink below the paper at its top, above the paper at its bottom.
        #expect(edges.map(\.inkBelow) == [true, false, true, false], "\(edges)")
        // Band y stands at height y: the line's top at 99.3 crosses half its darkness at 98.8, within a fifth of a band.
        let expected = [98.8, 100.8, 249.1, 251.1].map { Int64(($0 * 256).rounded()) }
        for (edge, height) in zip(edges, expected) { #expect(abs(edge.at - height) <= 51, "\(edge) against \(height)") }
        #expect(StripScore.flatEdges(.init(Self.borders([100, 250], step: 0.1))).isEmpty)
        #expect(StripScore.flatEdges(.init(Self.strip())).isEmpty)
    }

    @Test("Borders held together: one layout moved by one shift keeps its borders together; the same layout with each border a little apart does not; under 3 shared edges says nothing")
    func bordersApart() throws {
        let layout = [60.0, 190, 330, 450]
        let page = StripScore.Strip(Self.borders(layout))
        // The other half of one artwork, scanned 1.3 bands lower.
        let shifted = try #require(StripScore.bordersApart(page, .init(Self.borders(layout.map { $0 + 1.3 }))))
        #expect(shifted <= 30, "\(shifted)")
        // A page of the same layout whose borders are each drawn up to 0.8 band from the first page's.
        let apart = try #require(StripScore.bordersApart(page, .init(Self.borders(zip(layout, [0.8, -0.6, 0.7, -0.8]).map(+)))))
        #expect(apart >= 500, "\(apart)")
        // On the other page a line drawn under the second border moves its bottom edge 2.7 bands: matched with
        // it, that one of the 8 edges counts a band (1/8 of a band in the mean), not 2.7 (0.34).
        var other = Self.borders(layout.map { $0 + 1.3 })
        for y in 193...194 { for k in 0..<Self.depth { other[y * Self.depth + k] = 16 * 20 } }
        let mismatched = try #require(StripScore.bordersApart(page, .init(other)))
        #expect((100...160).contains(mismatched), "\(mismatched)")
        // A border's top and bottom edges move together; one border alone leaves 2 edges to compare.
        #expect(StripScore.bordersApart(.init(Self.borders([200])), .init(Self.borders([200.8]))) == nil)
        #expect(StripScore.bordersApartPenalty(nil) == 0)
        #expect(StripScore.bordersApartPenalty(StripScore.bordersApartKnee) == 0)
        #expect(StripScore.bordersApartPenalty(StripScore.bordersApartKnee + 250) == 250 * StripScore.bordersApartWeight / 1000)
    }
}
