import Foundation
import MihirakiRaster
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs

@Suite("Shrink-on-load", .tags(.codecs), .timeLimit(.minutes(10)))
struct ShrinkOnLoadTests {
    /// Rows of a page decoded with `atLeast`, as an image.
    static func rows(_ bytes: [UInt8], atLeast: (width: Int, height: Int)?) throws -> PixelBuffer {
        try PageDecoder.withRows(bytes, atLeast: atLeast) { width, height, channels, next in
            try PixelBuffer(width: width, height: height, channels: channels) { out in
                for y in 0..<height { try next(out.baseAddress! + y * width * channels) }
            }
        }
    }

    /// A 1200×1600 JPEG with fine detail, like a scanned page.
    static func page(exif: [UInt8]? = nil) throws -> [UInt8] {
        var image = PixelBuffer(width: 1200, height: 1600, channels: 3)
        for y in 0..<1600 {
            for x in 0..<1200 {
                let i = (y * 1200 + x) * 3
                image.pixels[i] = UInt8((x * 7 + y * 3) & 255)
                image.pixels[i + 1] = UInt8(((x / 9 + y / 13) & 1) * 200 + 20)
                image.pixels[i + 2] = UInt8((x ^ y) & 255)
            }
        }
        return try JPEGEncoder.encode(image, quality: 92, exif: exif)
    }

    @Test("A JPEG is decoded at the smallest of 1/8, 1/4, 1/2 that still covers the size asked for", arguments: [
        ((1200, 1600), (1200, 1600)), ((601, 800), (1200, 1600)), ((600, 800), (600, 800)), ((400, 10), (600, 800)),
        ((300, 400), (300, 400)), ((299, 400), (300, 400)), ((301, 400), (600, 800)), ((150, 200), (150, 200)), ((1, 1), (150, 200)),
    ])
    func jpegScale(asked: (Int, Int), delivered: (Int, Int)) throws {
        let image = try Self.rows(try Self.page(), atLeast: asked)
        #expect(image.width == delivered.0 && image.height == delivered.1)
    }

    @Test("An EXIF-rotated JPEG: the size asked for is upright, the scale applies to the stored page")
    func rotated() throws {
        let bytes = try Self.page(exif: Fixtures.exifOrientation(6))
        let full = try Self.rows(bytes, atLeast: nil)
        #expect(full.width == 1600 && full.height == 1200)
        let reduced = try Self.rows(bytes, atLeast: (800, 600))
        #expect(reduced.width == 800 && reduced.height == 600)
        let upright = try Self.rows(bytes, atLeast: (800, 601))
        #expect(upright.width == 1600 && upright.height == 1200, "601 upright rows need the full stored width")
    }

    @Test("Formats without DCT scaling decode at full size")
    func otherFormats() throws {
        let png = try Fixtures.solidPNG(width: 400, height: 300, [10, 20, 30])
        let image = try Self.rows(png, atLeast: (10, 10))
        #expect(image.width == 400 && image.height == 300)
    }

    @Test("Resampled to a thumbnail, a sample page's reduced decode stays close to the full one (over 40 dB)",
          arguments: ["page1.jpg", "page3.jpg"])
    func quality(name: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.sampleBook.appendingPathComponent(name))
        let header = try PageDecoder.header(of: bytes)
        let width = header.width / 5, height = header.height / 5
        func thumbnail(_ atLeast: (width: Int, height: Int)?) throws -> PixelBuffer {
            let source = try Self.rows(bytes, atLeast: atLeast)
            if atLeast != nil { #expect(source.width < header.width, "decoded at a reduced scale") }
            return LanczosResampler.resample(source, width: width, height: height)
        }
        let full = try thumbnail(nil), reduced = try thumbnail((2 * width, 2 * height))
        let fidelity = psnr(full.pixels, reduced.pixels)
        #expect(fidelity > 40, "\(fidelity) dB")
    }
}
