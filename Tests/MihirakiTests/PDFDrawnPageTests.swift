import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

@Suite("PDF books: drawn pages, their limits and damaged pictures", .tags(.library), .timeLimit(.minutes(10)))
struct PDFDrawnPageTests {
    /// The single-picture fast path drew what a rasteriser does not: an
    /// inverting /Decode, an Exif rotation (PDF ignores Exif), a see-through
    /// graphics state, annotations over the page, a JPEG of half the size its
    /// dictionary declares (drawn as if it filled the page). Each such page is
    /// drawn as pdftoppm draws it now.
    @Test("A picture page with /Decode [1 0], Exif rotation, a see-through ExtGState or an annotation is drawn as pdftoppm draws it",
          arguments: ["decode", "exif", "alpha", "annotation", "smaller"])
    func fastPathOnlyWhenExact(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A picture with a bright left half and a dark right half, so a flip, a turn or an inversion shows.
        let (width, height) = (160, 100)
        let samples = (0..<width * height * 3).map { i -> UInt8 in (i / 3) % width < width / 2 ? 230 : UInt8(20 + (i % 3) * 30) }
        let picture = PixelBuffer(width: width, height: height, channels: 3, pixels: samples)
        var jpeg = try JPEGEncoder.encode(picture, quality: 95)
        var page = "", image = "", content = "", objects: [String] = []
        switch kind {
        case "decode": image = "/Decode [1 0 1 0 1 0]"
        case "exif": jpeg = try JPEGEncoder.encode(picture, quality: 95, exif: Fixtures.exifOrientation(6))
        case "smaller":
            let half = (0..<width * height * 3 / 4).map { i -> UInt8 in (i / 3) % (width / 2) < width / 4 ? 230 : 60 }
            jpeg = try JPEGEncoder.encode(PixelBuffer(width: width / 2, height: height / 2, channels: 3, pixels: half), quality: 95)
        case "alpha":
            content = "/GS1 gs"
            objects = ["<< /Type /ExtGState /ca 0.5 /CA 0.5 >>"]
        default:
            page = "/Annots [6 0 R]"
            objects = ["<< /Type /Annot /Subtype /Square /Rect [20 20 140 80] /C [1 0 0] /IC [0 0 1] /Border [0 0 6] /F 4 >>"]
        }
        let path = try folder.write("\(kind).pdf", PDFTests.onePicturePDF(jpeg: jpeg, width: width, height: height, page: page,
                                                                     image: image, content: content, objects: objects))
        let (psnr, _, rect) = try PDFTests.againstPdftoppm(path)
        #expect(psnr >= 28, "\(kind): PSNR \(psnr) dB against pdftoppm")
        #expect(rect.width > rect.height, "\(kind): the page keeps its stored shape, \(rect)")
    }

    /// A flat 40×60 JPEG, for pages whose picture does not matter.
    static var grayJPEG: [UInt8] {
        get throws { try JPEGEncoder.encode(PixelBuffer(width: 40, height: 60, channels: 3, pixels: Array(repeating: 99, count: 40 * 60 * 3))) }
    }

    /// A CropBox outside the MediaBox passed plan and failed render.
    @Test("A CropBox outside the MediaBox fails plan and render alike, naming the page")
    func cropBoxOutside() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("crop.pdf", PDFTests.onePicturePDF(jpeg: try Self.grayJPEG, width: 40, height: 60,
                                                                  page: "/CropBox [500 500 600 600]"))
        for stage in ["plan", "render"] {
            #expect { () throws -> Void in
                let plan = try SpreadPlan(book: try Book.load(path), options: LayoutOptions())
                if stage == "render" { _ = try plan.renderSpread(at: 0) }
            } throws: { error in
                (error as? MihirakiError)?.description.contains("CropBox lies outside its MediaBox") == true
            }
        }
    }

    /// A page of a few hundred kilobytes whose content inflates to 300 MiB
    /// made plan take gigabytes of memory for half a minute; its content is
    /// counted, not kept, and refused at 256 MiB.
    @Test("A page whose content inflates past 256 MiB fails its book in one line, quickly, before anything parses it")
    func contentBomb() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("bomb.pdf", PDFTests.onePicturePDF(jpeg: try Self.grayJPEG, width: 40, height: 60,
                                                                  deflated: Fixtures.zlibZeros(count: 300 << 20)))
        let start = ContinuousClock.now
        #expect { _ = try SpreadPlan(book: try Book.load(path), options: LayoutOptions()) } throws: { error in
            let text = (error as? MihirakiError)?.description ?? "\(error)"
            return text.contains("bomb.pdf:page 1: its content inflates past 256 MiB") && !text.contains("\n")
        }
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    /// A page poppler draws (a shape beside its picture) whose picture is a
    /// JPEG cut short, a JBIG2 stream of garbage, or 100000×100000 pixels drew
    /// with exit 0: the first two as gray or nothing, the last for half a
    /// minute. Each fails its book naming the page; the pixel limit in plan
    /// as in render.
    @Test("A drawn page whose picture is a truncated JPEG, a bogus JBIG2 or over --max-pixels fails naming the page",
          arguments: ["truncated", "jbig2", "huge"])
    func damagedPictureOnDrawnPage(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let jpeg = try Self.grayJPEG
        let (stream, picture, expected): ([UInt8], String?, String) = switch kind {
        case "truncated": (Array(jpeg.prefix(jpeg.count / 2)), nil, "its JPEG picture of 40×60 is truncated")
        case "jbig2": (Array(repeating: Array("\u{0}\u{1}garbage".utf8), count: 20).flatMap { $0 },
                       "/Width 40 /Height 60 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode",
                       "poppler: ")
        default: (Fixtures.zlibZeros(count: 1000),
                  "/Width 100000 /Height 100000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode",
                  "it draws a picture of 100000×100000, more than the 200000000-pixel limit (--max-pixels)")
        }
        let path = try folder.write("\(kind).pdf", PDFTests.onePicturePDF(jpeg: stream, width: 40, height: 60, picture: picture,
                                                                      content: "0 0 1 rg 0 0 10 10 re f"))
        let start = ContinuousClock.now
        for stage in kind == "huge" ? ["plan", "render"] : ["render"] {
            let text = PDFTests.message {
                let plan = try SpreadPlan(book: try Book.load(path), options: LayoutOptions())
                if stage == "render" { _ = try plan.renderSpread(at: 0) }
            }
            #expect(text.contains("\(kind).pdf:page 1: \(expected)") && !text.contains("\n"), "\(stage): \(text)")
        }
        #expect(ContinuousClock.now - start < .seconds(20))
        // The same page with its picture whole draws.
        let whole = try folder.write("whole.pdf", PDFTests.onePicturePDF(jpeg: jpeg, width: 40, height: 60,
                                                                    content: "0 0 1 rg 0 0 10 10 re f"))
        _ = try SpreadPlan(book: try Book.load(whole), options: LayoutOptions()).renderSpread(at: 0)
    }

    /// The frame header is looked for in a picture's first 64 KiB, then in
    /// its first MiB: comments (or an ICC profile) before it keep the page a
    /// picture read as it is stored.
    @Test("A JPEG picture whose frame header lies past its first 64 KiB is still the page's picture")
    func frameHeaderFarIn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let jpeg = try Self.grayJPEG
        let comment: [UInt8] = [0xFF, 0xFE, 0xFF, 0xFF] + Array(repeating: 0x20, count: 65533)
        let padded = Array(jpeg.prefix(2)) + comment + comment + Array(jpeg.dropFirst(2))
        let path = try folder.write("far.pdf", PDFTests.onePicturePDF(jpeg: padded, width: 40, height: 60))
        let page = try PDFReader(path: path).page(0)
        #expect(page.isOnePicture && page.isJPEG)
    }
}
