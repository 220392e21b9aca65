import Foundation
import MihirakiTestSupport
import Synchronization
@testable import MihirakiAnalysis
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

@Suite("Split wide pages and crop borders: one scale, damaged pages, drawn as measured", .tags(.library), .timeLimit(.minutes(10)))
struct SplitAndCropRenderTests {
    @Test("With --crop-borders the two pages of a spread share one scale and are centred on each other; a page beside a blank keeps its own")
    func oneScalePerSpread() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try SplitAndCropTests.page(width: 300, height: 450))
        try folder.write("book/p2.png", try SplitAndCropTests.page(width: 300, height: 450, border: (10, 40, 0, 10), seed: 7))
        try folder.write("book/p3.png", try SplitAndCropTests.page(width: 300, height: 450, border: (0, 5, 30, 60), seed: 8))
        let cropped = try SplitAndCropTests.plan(folder.path + "/book") { $0.cropBorders = true }
        let pair = cropped.manifest.spreads[1].slots
        let scales = pair.map { Double($0.rect[3]) / Double($0.crop![3]) }
        #expect(abs(scales[0] / scales[1] - 1) < 0.005)
        #expect(abs((pair[0].rect[1] * 2 + pair[0].rect[3]) - (pair[1].rect[1] * 2 + pair[1].rect[3])) <= 1)
        #expect(pair[0].rect[0] + pair[0].rect[2] == pair[1].rect[0])
        // The cover beside its blank keeps its own fit: its slot's full width.
        #expect(cropped.manifest.spreads[0].slots[1].rect[2] == 987)
    }

    @Test("A page whose pixels are damaged fails the plan that measures it, naming the page; a plan that does not measure it reads only its header")
    func damagedPageWhileMeasured() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try SplitAndCropTests.page(width: 300, height: 450))
        // A valid header and no image data: the header reads, the pixels do not.
        let good = try SplitAndCropTests.page(width: 901, height: 600, fold: 478)
        try folder.write("book/p2.png", Array(good.prefix(60)))
        for configure in [{ (o: inout LayoutOptions) in o.cropBorders = true }, { (o: inout LayoutOptions) in o.splitWide = .auto }] {
            #expect { try SplitAndCropTests.plan(folder.path + "/book", configure) } throws: {
                ($0 as? MihirakiError)?.path?.hasSuffix("p2.png") == true && ($0 as? MihirakiError)?.code != .usage
            }
        }
        #expect(try SplitAndCropTests.plan(folder.path + "/book") { $0.splitWide = .center }.text == "[x|1]\n[2a|2b]\n")
    }

    @Test("A page under 16 pixels a side is left whole, with a note in --explain")
    func tooSmall() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try Fixtures.solidPNG(width: 30, height: 10, [200]))
        try folder.write("book/p2.png", try Fixtures.solidPNG(width: 10, height: 12, [90]))
        let cut = try SplitAndCropTests.plan(folder.path + "/book") { $0.splitWide = .auto; $0.cropBorders = true }
        #expect(cut.text == "[1W]\n[2|x]\n")
        #expect(cut.explanation.contains("# page 1 left whole: under 16 pixels a side is too small to split"))
        #expect(cut.explanation.contains("# page 2 not cropped: under 16 pixels a side is too small to crop"))
        for index in 0..<cut.spreadCount { _ = try cut.renderSpread(at: index) }
    }

    @Test("render measures cut pages as it draws them: the same plan, manifest and pixels as a plan measured first, at 1 and 2 jobs, in both directions")
    func drawnAsMeasured() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try SplitAndCropTests.page(width: 300, height: 450, border: (8, 20, 3, 9)))
        try folder.write("book/p2.png", try SplitAndCropTests.page(width: 901, height: 600, fold: 478, border: (6, 6, 20, 6)))
        var colour = try PageDecoder.decode(try SplitAndCropTests.page(width: 320, height: 460, border: (0, 30, 0, 0), seed: 9)).expandedToRGB()
        colour.pixels[0] = 255
        try folder.write("book/p3.png", try PNGEncoder.encode(colour))
        try folder.write("book/p4.png", try SplitAndCropTests.page(width: 300, height: 450, seed: 10))
        for (jobs, direction, layout) in [(1, ReadingDirection.ltr, LayoutMode.spread), (2, .rtl, .spread), (2, .ltr, .single)] {
            var options = LayoutOptions()
            options.size = .height(300)
            options.direction = direction
            options.layout = layout
            options.splitWide = .auto
            options.cropBorders = true
            var run = RunOptions()
            run.jobs = jobs
            let measured = try SpreadPlan(book: Book.load(folder.path + "/book"), options: options, jobs: jobs)
            // Planned to be rendered: the same plan, its measured pages kept for the render.
            let planned = BookRenderer.plan([folder.path + "/book"], options: options, run: run)
            let rendered = try #require(planned.plans.first)
            #expect(rendered.text == measured.text && rendered.explanation == measured.explanation)
            #expect(rendered.manifest == measured.manifest)
            #expect(planned.cache.byteCount() > 0)
            for index in 0..<rendered.spreadCount {
                // Each page is read and decoded once in the whole run, a split page's two halves included:
                // the render draws from the measuring's decodes; without them, once per spread.
                let kept = ReadCounter(), alone = ReadCounter()
                #expect(try SpreadRenderer(plan: rendered, cache: planned.cache).render(at: index, observer: kept)
                    == measured.renderSpread(at: index, observer: alone), "spread \(index + 1)")
                #expect(kept.count == 0, "spread \(index + 1)")
                #expect(alone.count == Set(rendered.entries[index].spread.pages).count, "spread \(index + 1)")
            }
            #expect(planned.cache.byteCount() == 0)
        }
    }

    @Test("A damaged page fails its own spread, naming the page; the other spreads draw, and --explain says why it was not measured")
    func damagedPageAtRender() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try SplitAndCropTests.page(width: 300, height: 450))
        try folder.write("book/p2.png", Array(try SplitAndCropTests.page(width: 300, height: 450).prefix(60)))
        try folder.write("book/p3.png", try SplitAndCropTests.page(width: 300, height: 450))
        try folder.write("book/p4.png", try SplitAndCropTests.page(width: 300, height: 450))
        var options = LayoutOptions()
        options.size = .height(200)
        options.cropBorders = true
        let plan = try #require(BookRenderer.plan([folder.path + "/book"], options: options).plans.first)
        #expect(plan.text == "[x|1]\n[2|3]\n[4|x]\n")
        #expect { try plan.renderSpread(at: 1) } throws: { ($0 as? MihirakiError)?.path?.hasSuffix("p2.png") == true }
        _ = try plan.renderSpread(at: 0)
        _ = try plan.renderSpread(at: 2)
        #expect(plan.explanation.contains("# page 2 not measured: "), "\(plan.explanation)")
    }
}
