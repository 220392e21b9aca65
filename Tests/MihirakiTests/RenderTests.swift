import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// A book of flat pages, each `width×height`, with the given samples.
func flatBook(_ pages: [(width: Int, height: Int, samples: [UInt8])]) throws -> (TemporaryFolder, Book) {
    let folder = try TemporaryFolder()
    for (i, page) in pages.enumerated() {
        try folder.write("book/p\(i + 1).png", try Fixtures.solidPNG(width: page.width, height: page.height, page.samples))
    }
    return (folder, try Book.load(folder.path + "/book"))
}

/// Renders one book and returns its outcome.
func renderOne(_ plan: SpreadPlan, into outputRoot: String, options: RunOptions = RunOptions()) throws -> BookRenderer.Outcome {
    try BookRenderer.render([plan], into: outputRoot, options: options)[0]
}

/// How a test run goes: `jobs` workers, optionally with contact sheets.
func runOptions(jobs: Int = 1, contactSheet: Bool = false) -> RunOptions {
    var options = RunOptions()
    options.jobs = jobs
    options.contactSheet = contactSheet
    return options
}

func small(_ configure: (inout LayoutOptions) -> Void = { _ in }) -> LayoutOptions {
    var options = LayoutOptions()
    options.size = .exact(width: 160, height: 100)
    configure(&options)
    return options
}

@Suite("Rendering spreads", .tags(.library), .timeLimit(.minutes(10)))
struct RenderTests {
    @Test("A cover spread: blank on the left in the blank colour, page on the right, background elsewhere")
    func coverSpread() throws {
        let (folder, book) = try flatBook([(50, 100, [90]), (50, 100, [90])])
        defer { folder.remove() }
        let plan = try SpreadPlan(book: book, options: small())
        // Slots: (160 − 0)/100 ≥ 1.285 → fit to height: slotW = 64.25, left x = 15.75, right x = 80.
        // Page 1 (50×100) is drawn 50×100 at x = 80…130; the blank mirrors it at 30…80.
        #expect(plan.entries[0].slots.map(\.rect) == [PixelRect(x: 30, y: 0, width: 50, height: 100),
                                                      PixelRect(x: 80, y: 0, width: 50, height: 100)])
        let image = try plan.renderSpread(at: 0)
        #expect(image.channels == 1)
        #expect(image.rgba(x: 10, y: 50) == .black)
        #expect(image.rgba(x: 30, y: 0) == .white && image.rgba(x: 79, y: 99) == .white)
        #expect(image.rgba(x: 80, y: 0) == Color(gray: 90) && image.rgba(x: 129, y: 99) == Color(gray: 90))
        #expect(image.rgba(x: 130, y: 50) == .black)
    }

    @Test("Output is gray, RGB or RGBA as the content needs")
    func outputLayout() throws {
        let (folder, book) = try flatBook([(50, 100, [90]), (50, 100, [10, 200, 30]), (50, 100, [90])])
        defer { folder.remove() }
        let plan = try SpreadPlan(book: book, options: small())
        #expect(try plan.renderSpread(at: 0).channels == 1)   // [x|1]: gray page, white blank, black canvas
        #expect(try plan.renderSpread(at: 1).channels == 3)   // [2|3]: a colour page
        let tinted = try SpreadPlan(book: book, options: small { $0.blank = Color(red: 250, green: 240, blue: 220) })
        #expect(try tinted.renderSpread(at: 0).channels == 3)
        let clear = try SpreadPlan(book: book, options: small { $0.background = .transparent })
        let image = try clear.renderSpread(at: 0)
        #expect(image.channels == 4 && image.rgba(x: 5, y: 5).alpha == 0 && image.rgba(x: 100, y: 50) == Color(gray: 90))
    }

    @Test("A background or blank with partial alpha is stored exactly as given where nothing else is drawn",
          arguments: [("#0f6b7f01", "#FFFFFF"), ("#27611540", "#FFFFFF80"), ("#27611540", "#10203001"),
                      ("#00000000", "#27611540"), ("#ff000000", "#80808080"),
                      // The model check, seed 202: a transparent blank over a transparent background
                      // held the blank's colour; a nearly opaque blank over a half-transparent background,
                      // on a canvas that ends up opaque, held its premultiplied rounding (195 for 196).
                      ("transparent", "#42d6b900"), ("#70263d80", "#28c40cfe"),
                      // Seed 404: this blank over this background is stored as the background is
                      // (8, 16, 24, 128); the background took the blank's colour.
                      ("#10203080", "#186b7e01")])
    func exactFlatColours(background: String, blank: String) throws {
        let (folder, book) = try flatBook([(50, 100, [90]), (50, 100, [90])])
        defer { folder.remove() }
        let bg = try #require(Color(parsing: background)), paper = try #require(Color(parsing: blank))
        let plan = try SpreadPlan(book: book, options: small { $0.background = bg; $0.blank = paper })
        let image = try plan.renderSpread(at: 0)  // [x|1]: blank at 30…80, page at 80…130
        #expect(image.channels == 4)
        #expect(image.rgba(x: 10, y: 50) == bg && image.rgba(x: 150, y: 0) == bg)
        #expect(image.rgba(x: 50, y: 50) == paper.over(bg))
        #expect(image.rgba(x: 100, y: 50) == Color(gray: 90))
    }

    /// The model check, seed 202: a nearly opaque blank over a half
    /// see-through background, with the page and the blank covering the
    /// whole canvas, was written as RGB from its premultiplied rounding
    /// (40, 195, 12) instead of the source-over colour (40, 196, 12).
    @Test("A canvas that ends up opaque still holds a blank's exact colour")
    func exactFlatColourOnAnOpaqueCanvas() throws {
        let (folder, book) = try flatBook([(80, 100, [90, 60, 30])])
        defer { folder.remove() }
        let background = try #require(Color(parsing: "#70263d80")), paper = try #require(Color(parsing: "#28c40cfe"))
        let plan = try SpreadPlan(book: book, options: small {
            $0.background = background; $0.blank = paper
            $0.pageAspect = PageAspect(width: 80, height: 100); $0.fit = .stretch
        })
        let image = try plan.renderSpread(at: 0)  // [x|1]: the blank 0…80, the page 80…160, nothing else
        #expect(image.channels == 3)
        #expect(paper.over(background) == Color(red: 40, green: 196, blue: 12))
        #expect(image.rgba(x: 40, y: 50) == Color(red: 40, green: 196, blue: 12))
    }

    @Test("Source-over of two straight colours, rounded as in real numbers")
    func straightOver() {
        let blank = Color(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 0x80)
        let background = Color(red: 0x27, green: 0x61, blue: 0x15, alpha: 0x40)
        // ta = 128/255, ba = 64/255, oa = 0.62696 → alpha 159.87 → 160; red (255·ta + 39·ba·(1 − ta)) / oa = 211.94
        #expect(blank.over(background) == Color(red: 212, green: 223, blue: 208, alpha: 160))
        #expect(blank.over(.transparent) == blank && Color.transparent.over(background) == background)
    }

    @Test("Pages with alpha are composited over the background")
    func alphaPages() throws {
        let (folder, book) = try flatBook([(50, 100, [255, 0, 0, 128])])
        defer { folder.remove() }
        let plan = try SpreadPlan(book: book, options: small { $0.background = Color(red: 0, green: 0, blue: 255) })
        let image = try plan.renderSpread(at: 0)
        #expect(image.channels == 3)
        #expect(image.rgba(x: 100, y: 50) == Color(red: 128, green: 0, blue: 127))
    }

    @Test("A wide page spans both slots; single mode never draws a blank")
    func wideAndSingle() throws {
        let (folder, book) = try flatBook([(50, 100, [40]), (200, 100, [80]), (50, 100, [120])])
        defer { folder.remove() }
        let plan = try SpreadPlan(book: book, options: small())
        #expect(plan.text == "[x|1]\n[2W]\n[3|x]\n")
        // Union slot 15.75…144.25 × 100: a 2:1 page is width-bound: 128.5 × 64.25, centred.
        #expect(plan.entries[1].slots.map(\.rect) == [PixelRect(x: 16, y: 18, width: 128, height: 64)])
        let single = try SpreadPlan(book: book, options: small { $0.layout = .single })
        #expect(single.text == "[1]\n[2W]\n[3]\n")
        for index in single.entries.indices {
            let image = try single.renderSpread(at: index)
            #expect(!image.pixels.contains(255), "no white blank anywhere")
        }
    }

    @Test("Rendering to a folder writes every spread and the manifest, byte-identical for any --jobs")
    func deterministicOutput() throws {
        let pages: [(width: Int, height: Int, samples: [UInt8])] = (1...7).map { (i: Int) in
            let samples: [UInt8] = [UInt8(i * 30), UInt8(255 - i * 20), 7]
            return (width: 40 + i * 3, height: 90, samples: samples)
        }
        let (folder, book) = try flatBook(pages)
        defer { folder.remove() }
        var outputs: [[String: Data]] = []
        for jobs in [1, 2, 4] {
            let out = folder.path + "/out-\(jobs)"
            let outcome = try renderOne(try SpreadPlan(book: book, options: small()), into: out, options: runOptions(jobs: jobs))
            #expect(outcome.succeeded && outcome.written.count == 4)
            let names = try FileManager.default.contentsOfDirectory(atPath: out + "/book").sorted()
            #expect(names == ["manifest.json", "spread-001.png", "spread-002.png", "spread-003.png", "spread-004.png"])
            outputs.append(Dictionary(uniqueKeysWithValues: try names.map {
                ($0, try Data(contentsOf: URL(fileURLWithPath: out + "/book/" + $0)))
            }))
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
    }

    @Test("A corrupt page fails its spread and the book; the other spreads are still written, no manifest")
    func corruptPage() throws {
        let (folder, book) = try flatBook([(50, 100, [40]), (50, 100, [80]), (50, 100, [120])])
        defer { folder.remove() }
        // Keep a valid header so the plan succeeds, then cut the pixel data short.
        let path = book.displayPath(book.images[2])
        let whole = try Fixtures.bytes(URL(fileURLWithPath: path))
        try Data(whole.prefix(whole.count - 20)).write(to: URL(fileURLWithPath: path))
        let outcome = try renderOne(try SpreadPlan(book: book, options: small()), into: folder.path + "/out")
        #expect(!outcome.succeeded)
        #expect(outcome.written == ["spread-001.png"])
        #expect(outcome.errors.count == 1 && outcome.errors[0].path == path)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/book/manifest.json"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out/book")
        #expect(leftovers == ["spread-001.png"], "no temporary files left behind")
    }

    @Test("Pages are resampled to exactly their rectangle, up and down")
    func resampledSize() throws {
        // A tiny page is enlarged, a big one reduced; both fill their rectangles edge to edge.
        let (folder, book) = try flatBook([(5, 10, [200]), (500, 1000, [200]), (500, 1000, [200])])
        defer { folder.remove() }
        let plan = try SpreadPlan(book: book, options: small { $0.background = Color(gray: 0) })
        for index in plan.entries.indices {
            let image = try plan.renderSpread(at: index)
            for slot in plan.entries[index].slots where slot.leaf != .blank {
                let r = slot.rect
                for (x, y) in [(r.x, r.y), (r.x + r.width - 1, r.y + r.height - 1)] {
                    #expect(image.rgba(x: x, y: y) == Color(gray: 200))
                }
                #expect(image.rgba(x: r.x - 1, y: r.y) != Color(gray: 200) || r.x == 0 || slot.side == .right)
            }
        }
    }
}
