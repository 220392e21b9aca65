import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// One hostile or odd page, made at test time from the valid fixtures.
struct BadPage: CustomTestStringConvertible, Sendable {
    var name: String
    var file: String
    var bytes: [UInt8]
    /// nil: must decode; otherwise a fragment of the expected error.
    var error: String?
    var testDescription: String { name }
}

func byteFlips(_ bytes: [UInt8], seed: UInt64, count: Int) -> [UInt8] {
    var copy = bytes
    var state = seed
    for _ in 0..<count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let at = Int(state >> 33) % copy.count
        copy[at] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
    }
    return copy
}

/// The catalogue: truncations, random flips, empty and wrong files, lying
/// headers, a decompression bomb, extreme shapes.
let badPages: [BadPage] = {
    let png = try! Fixtures.solidPNG(width: 64, height: 48, [30, 60, 90])
    let jpeg = try! JPEGEncoder.encode(Fixtures.solid(width: 64, height: 48, [30, 60, 90]), quality: 90)
    var pages: [BadPage] = []
    for fraction in [0.0, 0.1, 0.5, 0.9, 0.99] {
        pages.append(BadPage(name: "PNG cut at \(Int(fraction * 100)) %", file: "p.png",
                             bytes: Array(png.prefix(Int(Double(png.count) * fraction))), error: ""))
        pages.append(BadPage(name: "JPEG cut at \(Int(fraction * 100)) %", file: "p.jpg",
                             bytes: Array(jpeg.prefix(Int(Double(jpeg.count) * fraction))), error: ""))
    }
    for seed in 1...12 as ClosedRange<UInt64> {
        // Flips may land in harmless places: either an error or a correct-sized page is fine (error nil = may decode).
        pages.append(BadPage(name: "PNG with flipped bytes, seed \(seed)", file: "p.png",
                             bytes: byteFlips(png, seed: seed, count: 4), error: nil))
        pages.append(BadPage(name: "JPEG with flipped bytes, seed \(seed)", file: "p.jpg",
                             bytes: byteFlips(jpeg, seed: seed, count: 4), error: nil))
    }
    pages.append(BadPage(name: "zero-byte file", file: "p.png", bytes: [], error: "empty file"))
    pages.append(BadPage(name: "text named .png", file: "p.png", bytes: Array("hello, world\n".utf8),
                         error: "not an image Mihiraki reads (\(ImageFormat.readableNames))"))
    pages.append(BadPage(name: "JPEG named .png (a correct page)", file: "p.png", bytes: jpeg, error: nil))
    // A PDF is a book, never a page: one in a folder of pictures is not drawn.
    pages.append(BadPage(name: "PDF named .png", file: "p.png",
                         bytes: try! Fixtures.bytes(Fixtures.testImages.appendingPathComponent("pdf/vector.pdf")),
                         error: "not an image Mihiraki reads (\(ImageFormat.readableNames))"))
    pages.append(BadPage(name: "header claiming 100000×100000", file: "p.png",
                         bytes: Fixtures.pngWithHeader(width: 100_000, height: 100_000), error: "--max-pixels"))
    // 30000×30000 gray, every row filter 0 and zero: a few hundred KB deflated, 900 MB inflated.
    pages.append(BadPage(name: "decompression bomb (900 megapixels in a tiny file)", file: "p.png",
                         bytes: Fixtures.pngWithHeader(width: 30_000, height: 30_000,
                                                       idat: Fixtures.zlibZeros(count: 1 << 20)),
                         error: "--max-pixels"))
    pages.append(BadPage(name: "GIF cut after its screen descriptor", file: "p.gif",
                         bytes: Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), error: "GIF"))
    pages.append(BadPage(name: "BMP (a format Mihiraki does not read, named)", file: "p.bmp",
                         bytes: Array("BM".utf8) + [UInt8](repeating: 0, count: 60), error: "BMP images are not supported"))
    pages.append(BadPage(name: "TIFF (a format Mihiraki does not read, named)", file: "p.tif",
                         bytes: [0x49, 0x49, 0x2A, 0x00] + [UInt8](repeating: 0, count: 60), error: "TIFF images are not supported"))
    pages.append(BadPage(name: "HEIC (a format Mihiraki does not read, named)", file: "p.heic",
                         bytes: [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 52),
                         error: "HEIC images are not supported"))
    // The new formats, cut short and damaged: each names its format.
    for (name, format) in [("lossy.webp", "WebP"), ("interlaced.gif", "GIF"), ("lossy420.avif", "AVIF"),
                           ("lossy.jxl", "JPEG XL")] {
        let whole = try! Fixtures.bytes(Fixtures.testImages.appendingPathComponent("formats/" + name))
        pages.append(BadPage(name: "\(format) truncated", file: "p." + name.split(separator: ".").last!,
                             bytes: Array(whole.prefix(whole.count * 2 / 3)), error: format))
        var header = whole
        for i in 12..<min(40, header.count) { header[i] ^= 0x5A }
        // Bytes 12–40 of a GIF are its palette: still a picture, in other colours.
        pages.append(BadPage(name: "\(format) with damaged bytes 12–40", file: "p." + name.split(separator: ".").last!,
                             bytes: header, error: format == "GIF" ? nil : ""))
    }
    pages.append(BadPage(name: "AVIF whose decoded planes cannot become RGB (found by fuzzing)", file: "p.avif",
                         bytes: try! Fixtures.bytes(Fixtures.testImages.appendingPathComponent("fuzz-regressions/avif-reformat.avif")),
                         error: "AVIF image data is damaged"))
    pages.append(BadPage(name: "1×1 page", file: "p.png", bytes: try! Fixtures.solidPNG(width: 1, height: 1, [9]), error: nil))
    pages.append(BadPage(name: "1×20000 page", file: "p.png", bytes: try! Fixtures.solidPNG(width: 1, height: 20000, [9]),
                         error: nil))
    return pages
}()

@Suite("Bad input: one clear error, never a crash", .serialized, .tags(.library), .timeLimit(.minutes(10)))
struct BadInputTests {
    @Test("Each bad page fails its own book with an error naming it; the good book beside it is written",
          arguments: badPages)
    func badPage(page: BadPage) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = try Fixtures.solidPNG(width: 30, height: 40, [200])
        try folder.write("good/p1.png", good)
        try folder.write("good/p2.png", good)
        try folder.write("bad/a.png", good)
        let badPath = try folder.write("bad/" + page.file, page.bytes)
        var options = LayoutOptions()
        options.size = .exact(width: 200, height: 120)
        var plans: [SpreadPlan] = []
        var failures: [MihirakiError] = []
        for name in ["bad", "good"] {
            do {
                plans.append(try SpreadPlan(book: try Book.load(folder.path + "/" + name), options: options))
            } catch let error as MihirakiError {
                failures.append(error)
            }
        }
        let outcomes = try BookRenderer.render(plans, into: folder.path + "/out", options: runOptions(jobs: 2))
        failures += outcomes.flatMap(\.errors)
        let good2 = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out/good").sorted()
        #expect(good2 == ["manifest.json", "spread-001.png", "spread-002.png"])
        if let expected = page.error {
            let failure = try #require(failures.first, "\(page.name) was accepted")
            #expect(failures.count == 1)
            #expect(failure.path == badPath)
            #expect(expected.isEmpty || failure.message.contains(expected), "\(failure.message)")
            #expect(!failure.description.contains("\n"))
        } else {
            // Allowed to decode; if it did not, the error still names the file.
            for failure in failures { #expect(failure.path == badPath) }
        }
        // No temporary or partial files anywhere in the output.
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: folder.path + "/out").filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("A ZIP whose central directory lies is refused whole, naming the archive",
          arguments: ["offset-off-the-end", "count-says-2", "broken-signature", "name-length-400"])
    func lyingZIP(name: String) throws {
        let path = Fixtures.testImages.appendingPathComponent("lying-zips/\(name).cbz").path
        #expect { _ = try Book.load(path) } throws: { error in
            let error = error as? MihirakiError
            return error?.path == path && error?.code == .badBook && error?.message.hasPrefix("a damaged ZIP archive: ") == true
        }
        #expect(try Book.load(Fixtures.testImages.appendingPathComponent("lying-zips/valid.cbz").path).images.count == 4)
    }

    @Test("An entry whose deflate stream ends early is one error naming it, not a hang (found by fuzzing)",
          .timeLimit(.minutes(10)))
    func deflateEndsEarly() throws {
        // ZIPFoundation 0.9.20 spun for ever on this EPUB's package document
        // (its inflate loop never sees the stream end); Mihiraki reads
        // entries itself now, bounded by their stored sizes.
        let path = Fixtures.testImages.appendingPathComponent("fuzz-regressions/archive-deflate-ends-early.cbz").path
        #expect { _ = try Book.load(path) } throws: { error in
            let error = error as? MihirakiError
            return error?.path == path + ":EPUB/package.opf" && error?.message == "entry is damaged (its deflate stream is broken)"
        }
    }

    @Test("A book with no pages, and an archive entry named ../../evil.png, are handled")
    func booksAndArchives() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/empty", withIntermediateDirectories: true)
        #expect { _ = try Book.load(folder.path + "/empty") } throws: {
            ($0 as? MihirakiError)?.message == "no page images in this book"
        }
        let png = try Fixtures.solidPNG(width: 30, height: 40, [9])
        let archive = try folder.writeArchive("lib/evil.cbz", [("../../evil.png", png), ("ok.png", png)])
        let book = try Book.load(archive)
        // A `..` component is a dot-name: such entries are skipped like dot-files.
        #expect(book.images.map(\.source) == ["ok.png"])
        let outcome = try renderOne(try SpreadPlan(book: book, options: LayoutOptions()), into: folder.path + "/out")
        #expect(outcome.succeeded)
        // Nothing was written outside the output folder: entries are never paths on disk.
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/evil.png"))
        #expect(!FileManager.default.fileExists(atPath: (folder.path as NSString).deletingLastPathComponent + "/evil.png"))
    }

    /// A precondition the library's public API could reach with a bad index
    /// trapped the caller's process; it is a usage error now.
    @Test("A spread index out of range is an error naming the book, not a trap")
    func spreadIndexOutOfRange() throws {
        let plan = try SpreadPlan(book: try Book.load(Fixtures.sampleBook.path), options: LayoutOptions())
        for index in [-1, plan.spreadCount, Int.max] {
            let error = #expect(throws: MihirakiError.self) { try plan.renderSpread(at: index) }
            #expect(error?.code == .usage)
            #expect(error?.description.contains("has no spread") == true, "\(error?.description ?? "")")
            #expect(throws: MihirakiError.self) { try plan.spreadFile(at: index) }
        }
    }

    /// A GIF whose header says 0×7 has no pixel to draw: refused by the
    /// pixel check with the file named, before a resampler is asked for an
    /// empty side.
    @Test("A page of 0×N pixels is refused naming the file")
    func pageWithoutPixels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // GIF87a, a logical screen and an image descriptor of width 0.
        let gif: [UInt8] = Array("GIF87a".utf8) + [0, 0, 7, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + [0x2C, 0, 0, 0, 0, 0, 0, 7, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
        try folder.write("book/p1.gif", gif)
        try folder.write("book/p2.png", try Fixtures.solidPNG(width: 30, height: 40, [9]))
        #expect {
            let plan = try SpreadPlan(book: try Book.load(folder.path + "/book"), options: LayoutOptions())
            for index in 0..<plan.spreadCount { _ = try plan.renderSpread(at: index) }
        } throws: { error in
            let text = (error as? MihirakiError)?.description ?? ""
            return text.contains("p1.gif")
        }
    }
}

