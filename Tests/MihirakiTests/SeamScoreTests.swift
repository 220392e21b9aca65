@testable import Mihiraki
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
@testable import MihirakiAnalysis
import Testing

/// The split detector's measures on profiles built by hand (docs/pairing.md).
@Suite("Automatic pairing: the seam measures")
struct SeamScoreTests {
    /// A profile of `PageEdges.rows` bands (in 1/16 levels): white paper
    /// with dark panel borders 6 bands wide at `borders`, and between them
    /// thin gray lines two bands wide at heights drawn from `seed` (a small
    /// congruential generator), about one every 12 bands.
    static func profile(borders: [Int], seed: UInt32) -> [Int32] {
        var state = seed
        var levels = [Int32](repeating: 16 * 240, count: PageEdges.rows)
        for y in 0..<(PageEdges.rows - 1) {
            state = state &* 1_103_515_245 &+ 12345
            if (state >> 16) % 12 == 0 { levels[y] = 16 * 200; levels[y + 1] = 16 * 200 }
        }
        for border in borders { for y in border..<(border + 6) { levels[y] = 16 * 20 } }
        return levels
    }

    @Test("Ranks: lowest first, twice over, tied bands sharing their mean rank")
    func ranks() {
        #expect(SeamScore.ranks([30, 10, 20, 10, 30, 40]) == [7, 1, 4, 1, 7, 10])
        #expect(SeamScore.ranks([5, 5, 5]) == [2, 2, 2])
        #expect(SeamScore.ranks([]) == [])
    }

    @Test("A page's edge measures are shares of its height: the columns averaged, and the strips' columns, each the mean of the full-resolution columns it covers")
    func shareOfHeight() {
        #expect([600, 1199, 1200, 2000, 3000].map(PageEdges.depth(height:)) == [3, 6, 6, 10, 15])
        let canonical = PageEdges.canonicalHeight, depth = StripScore.depth
        #expect(PageEdges.stripDepth(height: canonical) == depth && PageEdges.stripDepth(height: 2 * canonical) == 2 * depth)
        #expect(PageEdges.stripDepth(height: canonical / 2) == depth / 2 && PageEdges.stripDepth(height: canonical + 1) == depth + 1)
        // Column x holds 16·x + band at every band.
        func columns(_ count: Int) -> [[Int32]] {
            (0..<count).map { x in (0..<PageEdges.rows).map { Int32(16 * x + $0) } }
        }
        // At the canonical height, the columns as they are.
        let same = PageEdges.stripColumns(columns(depth), height: canonical)
        #expect(same[5 * depth + 7] == 16 * 7 + 5 && same.count == PageEdges.rows * depth)
        // Twice as high: each strip column the mean of two, 16·(2k + 0.5) + band.
        let double = PageEdges.stripColumns(columns(2 * depth), height: 2 * canonical)
        #expect((0..<depth).allSatisfy { double[3 * depth + $0] == Int32(32 * $0 + 8 + 3) })
        // One and a half: the strip's column 0 is all of column 0 and half of column 1 (16/3, rounded), its
        // column 1 the other half of column 1 and all of column 2 (16·(1/3 + 2·2/3), rounded).
        let half = PageEdges.stripColumns(columns(PageEdges.stripDepth(height: 3 * canonical / 2)), height: 3 * canonical / 2)
        #expect(half[0] == 5 && half[1] == 27)
        // Half as high: each full-resolution column stands for two of the strip's.
        let small = PageEdges.stripColumns(columns(depth / 2), height: canonical / 2)
        #expect((0..<depth).allSatisfy { small[$0] == Int32(16 * ($0 / 2)) })
    }

    /// A page 1,200 rows high as its row sums: each row's left edge `edge(y, x)` (x from the edge, levels),
    /// its right edge `content(y)` throughout.
    static func rows(_ content: (Int) -> Int, _ edge: (Int, Int) -> Int) -> PageDecoder.EdgeRows {
        let height = 1200, depth = PageEdges.depth(height: height), stored = PageEdges.stripDepth(height: height)
        var sums = PageDecoder.EdgeRows(depth: depth, left: [], right: [], stripDepth: stored, strips: [[], []])
        for y in 0..<height {
            let left = (0..<stored).map { Int32(edge(y, $0) * 256) }, right = Int32(content(y) * 256)
            sums.left.append(left[0..<depth].reduce(0, +))
            sums.right.append(right * Int32(depth))
            sums.strips[0] += left
            sums.strips[1] += [Int32](repeating: right, count: stored)
        }
        return sums
    }

    @Test("A scan rotated to straighten it: the white its fill leaves along a side edge, a wedge from one corner, is left out of the edge and its strip")
    func scanFill() {
        // Dark artwork with a rise and fall down the page.
        func content(_ y: Int) -> Int { 40 + y % 97 / 3 }
        // The wedge: 3 white columns at the top row narrowing to none by row 200, and next to them one column
        // where fill and page blend, to row 400 (a scan 1,200 rows high rotated by about 0.3°).
        func wedge(from start: Int, to end: Int, upward: Bool = false) -> (Int, Int) -> Int {
            { y, x in
                let from = upward ? 1199 - y : y
                guard from >= start && from < end else { return content(y) }
                let white = 3 * (end - 100 - from) / (end - 100 - start)
                return x < white ? 250 : x == white ? (250 + content(y)) / 2 : content(y)
            }
        }
        let straight = Self.rows(content) { y, _ in content(y) }
        // From the top corner, and from the bottom one.
        for filled in [Self.rows(content, wedge(from: 0, to: 400)), Self.rows(content, wedge(from: 0, to: 400, upward: true))] {
            let (before, after) = (filled == straight, PageEdges.withoutFill(filled) == straight)
            #expect(!before && after)
        }

        // What is not a scan's fill stays: a wedge that starts away from the corners, one past the middle,
        // a light band of the artwork along the edge ending at its own width, one over a few rows only,
        // and a dark line near the edge of white paper.
        let middle = Self.rows(content, wedge(from: 500, to: 900))
        let long = Self.rows(content, wedge(from: 0, to: 800))
        let band = Self.rows(content) { y, x in y < 500 && x < 4 ? 120 : content(y) }
        // A light stripe of a background reaching the edge for a few rows at the top, two columns wide.
        let stripe = Self.rows(content) { y, x in y < 24 && x < 2 ? 120 : content(y) }
        let line = Self.rows({ _ in 250 }) { y, x in y < 340 && (7...9).contains(x) ? 10 : 250 }
        for sums in [middle, long, band, stripe, line] {
            let kept = PageEdges.withoutFill(sums) == sums
            #expect(kept)
        }
    }

    @Test("A JPEG page 2,000 rows high gives the same edges and strips from its coefficients as its decoded pixels do from their rows",
          arguments: [1, 3])
    func coefficientsAndRowsAgree(channels: Int) throws {
        let width = 700, height = 2000
        // Slanted stripes and a ramp: detail at every height and a slope the strips must keep. The levels
        // stay clear of 0 and 255, where a decoder clamps what the coefficients overshoot.
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels {
                    let stripe = (x + y / 3) / 9 % 2 == 0 ? 100 : 0
                    pixels[(y * width + x) * channels + c] = UInt8(50 + y / 20 + stripe - 20 * c)
                }
            }
        }
        let page = PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
        let jpeg = try JPEGEncoder.encode(page, quality: 95)
        let coefficients = try #require(try PageEdges.read(jpeg, maxPixels: 1 << 26))
        let png = try PNGEncoder.encode(try PageDecoder.decode(jpeg), compression: .fast)
        let rows = try #require(try PageEdges.read(png, maxPixels: 1 << 26))
        let (a, b) = (try #require(coefficients.strips), try #require(rows.strips))
        #expect(a.left.count == PageEdges.rows * StripScore.depth && b.left.count == a.left.count)
        #expect(coefficients.channels.count == rows.channels.count)
        // A decoded pixel is rounded to a whole level (16 in 1/16 levels); its colour luma is made again from rounded R, G and B.
        func largestDifference(_ x: PageEdges.Channel, _ y: PageEdges.Channel) -> Int {
            var largest = 0
            for (u, v) in zip(x.left + x.right, y.left + y.right) { largest = max(largest, abs(Int(u) - Int(v))) }
            return largest
        }
        let worst = largestDifference(a, b)
        #expect(worst <= (channels == 1 ? 8 : 16), "worst \(worst)")
        for (x, y) in zip(coefficients.channels, rows.channels) {
            let profiles = largestDifference(x, y)
            #expect(profiles <= 16, "worst \(profiles)")
        }
    }

    @Test("Exact integer square roots, at and either side of perfect squares")
    func squareRoots() {
        for root: Int64 in [0, 1, 2, 3, 255, 4096, 94_906_265, 67_108_863] {
            #expect(SeamScore.squareRoot(root * root) == root)
            if root > 0 { #expect(SeamScore.squareRoot(root * root - 1) == root - 1) }
            #expect(SeamScore.squareRoot(root * root + 2 * root) == root)
        }
    }

    @Test("Panel borders at the same heights with different detail between them weigh less than continuing detail")
    func sharedBordersAreNotContinuation() throws {
        let borders = [40, 140, 260, 380, 470]
        let page = Self.profile(borders: borders, seed: 1)
        let continuing = Self.profile(borders: borders, seed: 1).map { $0 + 16 * 3 }
        let otherPage = Self.profile(borders: borders.map { $0 + 1 }, seed: 2)
        func score(_ a: [Int32], _ b: [Int32]) throws -> Int {
            try #require(SeamScore.score(.init(SeamScore.gradient(a)), .init(SeamScore.gradient(b))))
        }
        let same = try score(page, continuing), shared = try score(page, otherPage)
        #expect(same > 950, "\(same)")
        // The same pair correlated on the gradients themselves: the borders carry it.
        var raw = SeamScore.Detail(SeamScore.gradient(page)), rawOther = SeamScore.Detail(SeamScore.gradient(otherPage))
        raw.compressed = raw.gradient
        rawOther.compressed = rawOther.gradient
        let uncompressed = try #require(SeamScore.score(raw, rawOther))
        #expect(shared < 650 && uncompressed - shared > 50, "\(shared) compressed, \(uncompressed) not")
    }

    /// A photograph's edge (in 1/16 levels): a level drawn from `seed` every 3 bands, held between them,
    /// so that every block of the height has detail of its own.
    static func texture(seed: UInt32) -> [Int32] {
        var state = seed, level: Int32 = 16 * 128
        return (0..<PageEdges.rows).map { y in
            if y % 3 == 0 {
                state = state &* 1_103_515_245 &+ 12345
                level = 16 * (40 + Int32((state >> 16) % 180))
            }
            return level
        }
    }

    @Test("Blocks held together: a scan's shift and scale move every block along one line, which is matched as well as with each block free; blocks that each match only at a shift of their own are not")
    func blocksHeldTogether() throws {
        let page = Self.texture(seed: 7)
        let n = page.count
        // The other half scanned 0.4 % larger and 3 bands lower: its shift runs from 2 bands at the top to 4 at the bottom.
        let scanned = (0..<n).map { y in page[min(n - 1, max(0, Int((Double(y - n / 2) / 1.004 + Double(n / 2) - 3).rounded())))] + 16 }
        // Each block's detail 5 bands up, in place or 5 bands down, in turn: no line of shifts runs through them.
        let span = (n - 2 * (SeamScore.maxShift + 3)) / SeamScore.blocks
        let scattered = (0..<n).map { y in
            let block = max(0, (y - SeamScore.maxShift - 3)) / span
            return page[min(n - 1, max(0, y + 5 * (block % 3 - 1)))]
        }
        let edge = SeamScore.Detail(SeamScore.gradient(page))
        func score(_ b: [Int32], together: Bool) throws -> Int {
            try #require(SeamScore.score(edge, .init(SeamScore.gradient(b)), together: together))
        }
        let (freeScan, togetherScan) = (try score(scanned, together: false), try score(scanned, together: true))
        #expect(freeScan > 900 && togetherScan > 900, "free \(freeScan), together \(togetherScan)")
        let (freeScattered, togetherScattered) = (try score(scattered, together: false), try score(scattered, together: true))
        #expect(freeScattered > 900 && togetherScattered < freeScattered - 200, "free \(freeScattered), together \(togetherScattered)")
    }

    @Test("A line's shift at a block: rounded to the nearest band, halves away from zero")
    func roundedQuotients() {
        #expect([(-5, 11), (5, 11), (6, 11), (-6, 11), (16, 11), (17, 11), (-17, 11), (33, 11), (0, 11)]
            .map { SeamScore.roundedQuotient($0.0, $0.1) } == [0, 0, 1, -1, 1, 2, -2, 3, 0])
        #expect(SeamScore.roundedQuotient(1, 2) == 1 && SeamScore.roundedQuotient(-1, 2) == -1)
    }

    /// A gray page whose profiles are `left` and `right`.
    static func page(left: [Int32], right: [Int32]) -> PageEdges {
        PageEdges(channels: [.init(left: left, right: right)])
    }

    /// White paper (in 1/16 levels) with a gray band from `top` to `bottom`, dark rules 4 bands wide at its borders.
    static func band(_ top: Int, _ bottom: Int) -> [Int32] {
        (0..<PageEdges.rows).map { y in
            y < top || y >= bottom ? 16 * 250 : (y < top + 4 || y >= bottom - 4 ? 16 * 30 : 16 * 190)
        }
    }

    /// White paper darkened toward the top and bottom (a vignette, or a lamp's fall-off), `depth` levels at the ends.
    static func vignette(_ depth: Int32) -> [Int32] {
        (0..<PageEdges.rows).map { y in
            let t = Int32(y - PageEdges.rows / 2)
            return 16 * 250 - 16 * depth * t * t / Int32(PageEdges.rows * PageEdges.rows / 4)
        }
    }

    @Test("A shape: a band or a rise and fall has one; flat paper and a straight ramp have none")
    func shapes() {
        #expect(SeamScore.shaped(SeamScore.coarse(Self.band(200, 260))))
        #expect(SeamScore.shaped(SeamScore.coarse(Self.vignette(40))))
        #expect(!SeamScore.shaped(SeamScore.coarse(Self.vignette(8))))
        #expect(!SeamScore.shaped(SeamScore.coarse([Int32](repeating: 16 * 250, count: PageEdges.rows))))
        let ramp = (0..<PageEdges.rows).map { Int32(16 * 60 + 16 * 180 * $0 / PageEdges.rows) }
        #expect(!SeamScore.shaped(SeamScore.coarse(ramp)))
    }

    @Test("A band crossing two otherwise white pages is one artwork, judged on its levels alone, where another page nearby shows the shape is not the book's; alone in a book of two, it is not taken")
    func bandAcrossWhitePages() throws {
        let white = [Int32](repeating: 16 * 250, count: PageEdges.rows)
        let marks = Self.profile(borders: [60, 300], seed: 5)
        // The band lies within one of the score's twelve blocks: too little to compare there.
        #expect(SeamScore.score(.init(SeamScore.gradient(Self.band(96, 126))), .init(SeamScore.gradient(Self.band(97, 127)))) == nil)
        let pair = [Self.page(left: white, right: Self.band(96, 126)), Self.page(left: Self.band(97, 127), right: white)]
        let book = [Self.page(left: white, right: marks)] + pair + [Self.page(left: marks, right: white)]
        let seams = SplitDetector.detect(book, direction: .ltr) { _ in true }
        let seam = try #require(seams.first { $0.first == 2 })
        #expect(seam.levelsAlone && seam.isSplit && seam.confidence > 900 && seam.margin >= SplitDetector.aloneMargin, "\(seams)")
        #expect(seams.filter(\.isSplit).count == 1, "\(seams)")
        // Two pages and nothing else: nothing tells the band from a shape every page of the book has.
        let alone = try #require(SplitDetector.detect(pair, direction: .ltr) { _ in true }.first)
        #expect(alone.levelsAlone && !alone.isSplit && alone.confidence == 0 && alone.margin == 0, "\(alone)")
    }

    @Test("A vignette every page shares is no artwork, even at the one seam where neither edge has detail",
          arguments: [false, true])
    func sharedVignette(rightToLeft: Bool) {
        // Six pages with the same fall-off on both edges; marks next to the edges of all but pages 3 and 4.
        func marked(_ seed: UInt32) -> [Int32] {
            let marks: [Int32] = Self.profile(borders: [], seed: seed), fallOff: [Int32] = Self.vignette(40)
            return zip(marks, fallOff).map { (mark: Int32, level: Int32) -> Int32 in mark - 16 * 240 + level }
        }
        let book: [PageEdges?] = (1...6).map { (n: Int) -> PageEdges in
            n == 3 || n == 4 ? Self.page(left: Self.vignette(40), right: Self.vignette(41))
                : Self.page(left: marked(UInt32(2 * n)), right: marked(UInt32(2 * n + 1)))
        }
        let seams = SplitDetector.detect(book, direction: rightToLeft ? .rtl : .ltr) { _ in true }
        let alone: [Seam] = seams.filter { $0.levelsAlone }
        #expect(alone.map { $0.first } == [3], "\(seams)")
        #expect(alone.allSatisfy { $0.confidence == 0 && $0.margin < SplitDetector.aloneMargin }, "\(seams)")
        #expect(!seams.contains { $0.isSplit }, "\(seams)")
    }
}
