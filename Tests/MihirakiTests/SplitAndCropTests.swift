import Foundation
import MihirakiTestSupport
import Synchronization
@testable import MihirakiAnalysis
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// `--split-wide` and `--crop-borders` (SPEC §3b) on pages drawn here with
/// known folds and borders: where the cut goes, what is kept, the halves'
/// spreads in both directions and layouts, one scale per spread, pages too
/// small to cut, and the files the same whether a page was drawn as it was
/// measured or decoded again.
@Suite("Split wide pages and crop borders", .tags(.library), .timeLimit(.minutes(10)))
struct SplitAndCropTests {
    /// A gray page: paper with a shadow of depth `shadow` around column
    /// `fold`, ink blocks of noise on each side, and `border` pixels of
    /// `borderGray` around it (left, top, right, bottom).
    static func page(width: Int, height: Int, fold: Int? = nil, shadow: Double = 60, paper: (Int, Int) = (235, 235),
                     border: (Int, Int, Int, Int) = (0, 0, 0, 0), borderGray: UInt8 = 250, seed: UInt64 = 1) throws -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        let (bl, bt, br, bb) = border
        let w = width + bl + br, h = height + bt + bb
        var image = PixelBuffer(width: w, height: h, channels: 1)
        for y in 0..<h {
            for x in 0..<w {
                var value: Double
                let cx = x - bl, cy = y - bt
                if cx < 0 || cy < 0 || cx >= width || cy >= height {
                    value = Double(borderGray)
                } else {
                    let left = fold.map { cx < $0 } ?? (cx < width / 2)
                    value = Double(left ? paper.0 : paper.1)
                    // Ink: noisy blocks away from the fold, and a frame around the content.
                    let inBlock = (cy / 40) % 2 == 0 && (cx % 120) > 20 && (cx % 120) < 100 && abs(cx - (fold ?? width / 2)) > 30
                    if inBlock || cx < 2 || cy < 2 || cx >= width - 2 || cy >= height - 2 {
                        value = Double(random.next() % 120)
                    }
                    if let fold {
                        let d = Double(cx - fold) + 0.5
                        value *= 1 - shadow / 255 * exp(-d * d / (2 * 12 * 12))
                    }
                }
                image.pixels[y * w + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        return try PNGEncoder.encode(image)
    }

    static func plan(_ folder: String, _ configure: (inout LayoutOptions) -> Void) throws -> SpreadPlan {
        var options = LayoutOptions()
        configure(&options)
        return try SpreadPlan(book: Book.load(folder), options: options, jobs: 2)
    }

    @Test("auto cuts at a shadow off the middle; center at floor(width/2); halves a and b share the spread, mirrored right to left, and are two images in single layout")
    func splitsAtTheFold() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try Self.page(width: 300, height: 450))
        try folder.write("book/p2.png", try Self.page(width: 901, height: 600, fold: 478))
        try folder.write("book/p3.png", try Self.page(width: 300, height: 450, seed: 2))
        let book = folder.path + "/book"
        let auto = try Self.plan(book) { $0.splitWide = .auto }
        let split = try #require(auto.cuts[2]?.split)
        #expect(abs(split.x - 478) <= 2, "cut at \(split.x)")
        #expect(split.reason == "gutter shadow" && split.confidence >= 750)
        #expect(auto.text == "[x|1]\n[2a|2b]\n[3|x]\n")
        let slots = auto.manifest.spreads[1].slots
        #expect(slots.map(\.half) == ["a", "b"] && slots.allSatisfy { $0.page == 2 && $0.split?.x == split.x })
        // The halves meet at the spine at one scale: the left one drawn x columns wide for every 901 - x of the right.
        #expect(slots[0].rect[0] + slots[0].rect[2] == slots[1].rect[0] && slots[0].rect[3] == slots[1].rect[3])
        #expect(auto.explanation.contains("# page 2 split at x \(split.x) (gutter shadow, confidence "))

        let rtl = try Self.plan(book) { $0.splitWide = .auto; $0.direction = .rtl }
        #expect(rtl.text == "[1|x]\n[2b|2a]\n[x|3]\n")
        #expect(rtl.manifest.spreads[1].slots.map(\.rect) == slots.map(\.rect))

        let single = try Self.plan(book) { $0.splitWide = .center; $0.layout = .single }
        #expect(single.text == "[1]\n[2a]\n[2b]\n[3]\n")
        #expect(single.cuts[2]?.split?.x == 450 && single.cuts[2]?.split?.confidence == 1000)
        #expect(single.manifest.spreads[1].slots[0].split?.x == 450)

        // Without the flag, every byte as before: no cuts, no new keys.
        let off = try Self.plan(book) { _ in }
        #expect(off.text == "[x|1]\n[2W]\n[3|x]\n" && off.cuts.isEmpty && !off.manifest.json.contains("split"))
    }

    @Test("auto takes a step in paper tone, and the exact middle where nothing marks the fold")
    func paperToneAndMiddle() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("tone/p1.png", try Self.page(width: 900, height: 600, paper: (240, 215)))
        // Fold 430: the step in paper goes with the fold, not the middle.
        try folder.write("step/p1.png", try Self.stepPage(fold: 430))
        try folder.write("flat/p1.png", try Self.page(width: 901, height: 600, paper: (235, 235)))
        let step = try Self.plan(folder.path + "/step") { $0.splitWide = .auto }
        #expect(step.cuts[1]?.split.map { abs($0.x - 430) <= 1 && $0.reason == "paper tone" } == true,
                "\(String(describing: step.cuts[1]?.split))")
        let flat = try Self.plan(folder.path + "/flat") { $0.splitWide = .auto }
        #expect(flat.cuts[1]?.split == PageCut.Split(x: 450, confidence: 500, reason: "middle"))
    }

    /// Uniform noise was cut at x = 866, 803 or 778 and called a gutter
    /// shadow (confidence 0.75–0.81): on noise every band has valleys deep
    /// enough anywhere. The same noise under a page fully transparent was
    /// cut at 778 too: the finder read pixels hidden under alpha. Nothing
    /// marks either page's fold, so both are cut at the middle.
    @Test("Uniform gray noise, and noise hidden under alpha, are cut at the middle, not at a shadow found in noise",
          arguments: [(1, 255), (2, 255), (3, 255), (1, 0), (2, 0)])
    func noiseIsNoMark(seed: UInt64, alpha: UInt8) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = PixelBuffer(width: 1600, height: 1000, channels: 4)
        var random = SeededGenerator(seed: seed)
        for i in 0..<(1600 * 1000) {
            let value = UInt8(random.next() % 256)
            for k in 0..<3 { image.pixels[4 * i + k] = value }
            image.pixels[4 * i + 3] = alpha
        }
        try folder.write("noise/p1.png", try PNGEncoder.encode(image))
        let noise = try Self.plan(folder.path + "/noise") { $0.splitWide = .auto }
        #expect(noise.cuts[1]?.split == PageCut.Split(x: 800, confidence: 500, reason: "middle"),
                "\(String(describing: noise.cuts[1]?.split))")
    }

    static func stepPage(fold: Int) throws -> [UInt8] {
        var image = PixelBuffer(width: 900, height: 600, channels: 1)
        var random = SeededGenerator(seed: 3)
        for y in 0..<600 {
            for x in 0..<900 {
                let ink = (y / 50) % 2 == 0 && (x % 150) > 30 && (x % 150) < 120 && abs(x - fold) > 40
                image.pixels[y * 900 + x] = ink ? UInt8(random.next() % 100) : (x < fold ? 242 : 222)
            }
        }
        return try PNGEncoder.encode(image)
    }

    @Test("--crop-borders keeps the content inside white and black borders of unequal widths, ignores dust specks, takes nothing from art at the edges or a coloured edge, and no more than --crop-limit")
    func cropsBorders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var white = try PageDecoder.decode(try Self.page(width: 300, height: 420, border: (12, 30, 5, 21)))
        // Dust: dark specks in the top border, one to a line (0.3 % of it).
        for (x, y) in [(40, 10), (200, 15), (41, 20)] { white.pixels[y * white.width + x] = 0 }
        try folder.write("book/p1.png", try PNGEncoder.encode(white))
        try folder.write("book/p2.png", try Self.page(width: 310, height: 430, border: (20, 0, 9, 40), borderGray: 8, seed: 4))
        try folder.write("book/p3.png", try Self.page(width: 320, height: 460, seed: 5))
        // A border a fifth of the page wide on the left: the limit stops at 10 %.
        try folder.write("book/p4.png", try Self.page(width: 250, height: 460, border: (70, 0, 0, 0), seed: 6))
        let cropped = try Self.plan(folder.path + "/book") { $0.cropBorders = true }
        #expect(cropped.cuts[1]?.kept == [PixelRect(x: 12, y: 30, width: 300, height: 420)])
        #expect(cropped.cuts[2]?.kept == [PixelRect(x: 20, y: 0, width: 310, height: 430)])
        #expect(cropped.cuts[3]?.kept == [PixelRect(x: 0, y: 0, width: 320, height: 460)])
        #expect(cropped.cuts[4]?.kept == [PixelRect(x: 32, y: 0, width: 288, height: 460)])
        #expect(cropped.manifest.cropBorders == Manifest.CropBorders(limit: 10))
        #expect(cropped.manifest.spreads[0].slots[1].crop == [12, 30, 300, 420])
        #expect(cropped.explanation.contains("# page 1 crop [12, 30, 300, 420]"))
        let limited = try Self.plan(folder.path + "/book") { $0.cropBorders = true; $0.cropLimit = 3 }
        #expect(limited.cuts[1]?.kept == [PixelRect(x: 9, y: 14, width: 303, height: 443)])
    }

    @Test("A flat stretch of art that ends in sparse detail is not a border; a border whose edge is blurred over a line is")
    func flatArtAndBlurredEdges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var random = SeededGenerator(seed: 11)
        // Flat paper-grey art whose first 20 columns are plain, then a few dark dots (6 % of a column): no edge.
        var flat = PixelBuffer(width: 300, height: 450, channels: 1)
        for y in 0..<450 {
            for x in 0..<300 { flat.pixels[y * 300 + x] = x >= 20 && random.next() % 100 < 6 ? 40 : 228 }
        }
        // A 20-column white border, one column half-way to the art (a blurred edge), then dense art.
        var blurred = PixelBuffer(width: 300, height: 450, channels: 1)
        for y in 0..<450 {
            for x in 0..<300 {
                let art = UInt8(random.next() % 140)
                blurred.pixels[y * 300 + x] = x < 20 ? 250 : x == 20 ? (y % 25 == 0 ? 120 : 245) : art
            }
        }
        try folder.write("book/p1.png", try PNGEncoder.encode(flat))
        try folder.write("book/p2.png", try PNGEncoder.encode(blurred))
        let cropped = try Self.plan(folder.path + "/book") { $0.cropBorders = true }
        #expect(cropped.cuts[1]?.kept.first?.x == 0)
        #expect(cropped.cuts[2]?.kept.first.map { (20...21).contains($0.x) } == true, "\(String(describing: cropped.cuts[2]))")
    }

    /// Art on paper of the border's own colour whose strokes (speed lines,
    /// rules) run out to its edge: the strokes' ends are the only mark of
    /// where it begins, and each side was left uncropped (IoU 0.75–0.80 on
    /// bench-split's stroke family). A few dots that start at one line and
    /// stop (no stroke) still leave the flat stretch whole.
    @Test("Strokes that run out to the art's edge mark it in a border of the paper's colour; dots that do not run on do not")
    func strokesMarkTheEdge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 300×400, a border of 20 (left, top) and 24 (right, bottom) around art on the same paper (250).
        var strokes = PixelBuffer(width: 300, height: 400, channels: 1)
        var dots = PixelBuffer(width: 300, height: 400, channels: 1)
        for y in 0..<400 {
            for x in 0..<300 {
                let inArt = (20..<276).contains(x) && (20..<376).contains(y)
                let picture = (110..<190).contains(x) && (150..<250).contains(y)
                let stroke = inArt && ([60, 61, 130, 131, 200, 240].contains(x) || [80, 81, 300, 330].contains(y))
                strokes.pixels[y * 300 + x] = picture ? 90 : stroke ? 20 : 250
                // The same picture; on the left, three dots two pixels long at column 20 instead of strokes.
                let dot = (20..<22).contains(x) && [100, 200, 300].contains(y)
                dots.pixels[y * 300 + x] = picture ? 90 : dot ? 20 : 250
            }
        }
        try folder.write("book/p1.png", try PNGEncoder.encode(strokes))
        try folder.write("book/p2.png", try PNGEncoder.encode(dots))
        let cropped = try Self.plan(folder.path + "/book") { $0.cropBorders = true }
        #expect(cropped.cuts[1]?.kept == [PixelRect(x: 20, y: 20, width: 256, height: 356)], "\(String(describing: cropped.cuts[1]))")
        #expect(cropped.cuts[2]?.kept.first?.x == 0, "\(String(describing: cropped.cuts[2]))")
    }

    @Test("A border counts only where it ends at an edge: flat art wider than the limit keeps its side; a line shaded by the edge's ringing goes with the border; a thin black frame on a black bed is the edge")
    func borderEndsAtAnEdge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var random = SeededGenerator(seed: 17)
        func draw(_ width: Int, _ height: Int, _ value: (Int, Int) -> Int) throws -> [UInt8] {
            var image = PixelBuffer(width: width, height: height, channels: 1)
            for y in 0..<height {
                for x in 0..<width { image.pixels[y * width + x] = UInt8(max(0, min(255, value(x, y)))) }
            }
            return try PNGEncoder.encode(image)
        }
        // Flat grey art 90 columns wide (more than the 10 % limit of 32), that
        // brightens slowly into noisy art: no edge, so nothing is taken.
        try folder.write("book/p1.png", try draw(320, 450) { x, _ in
            x < 90 ? 200 : x < 160 ? 200 + (x - 90) / 2 : Int(random.next() % 256)
        })
        // A white border, one column only 35 levels off it (the ringing of
        // the edge beside it), then dark art: the shaded column is border.
        try folder.write("book/p2.png", try draw(320, 450) { x, _ in
            x < 20 ? 250 : x == 20 ? 215 : Int(random.next() % 140)
        })
        // A black bed (12), a three-column black frame (3), then paper with ink:
        // the frame leaves the bed's colour at once, so the bed ends there.
        try folder.write("book/p3.png", try draw(320, 450) { x, y in
            x < 30 ? 12 : x < 33 ? 3 : (y / 30) % 2 == 0 && x % 60 > 20 ? Int(random.next() % 100) : 235
        })
        let cropped = try Self.plan(folder.path + "/book") { $0.cropBorders = true }
        #expect(cropped.cuts[1]?.kept.first?.x == 0, "\(String(describing: cropped.cuts[1]))")
        #expect(cropped.cuts[2]?.kept.first?.x == 21, "\(String(describing: cropped.cuts[2]))")
        #expect(cropped.cuts[3]?.kept.first?.x == 30, "\(String(describing: cropped.cuts[3]))")
    }

    @Test("A coloured edge is art, not a border")
    func colouredEdge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = PixelBuffer(width: 200, height: 300, channels: 3)
        for index in stride(from: 0, to: image.pixels.count, by: 3) {
            image.pixels[index] = 20
            image.pixels[index + 1] = 60
            image.pixels[index + 2] = 160
        }
        try folder.write("book/p1.png", try PNGEncoder.encode(image))
        let cropped = try Self.plan(folder.path + "/book") { $0.cropBorders = true }
        #expect(cropped.cuts[1]?.kept == [PixelRect(x: 0, y: 0, width: 200, height: 300)])
    }
}

/// Counts the pages a render reads.
final class ReadCounter: RenderObserver {
    private let reads = Mutex(0)
    var count: Int { reads.withLock { $0 } }
    func spreadStarted() {}
    func stage(_ stage: RenderStage, took nanoseconds: UInt64) {
        if stage == .read { reads.withLock { $0 += 1 } }
    }
}
