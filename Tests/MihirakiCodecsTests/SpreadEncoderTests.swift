import Foundation
import MihirakiRaster
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs

@Suite("Writing spreads as PNG, JPEG, WebP and AVIF", .tags(.codecs), .timeLimit(.minutes(10)))
struct SpreadEncoderTests {
    static func encoding(_ format: SpreadFormat, quality: Int = 85, lossless: Bool = false) -> SpreadEncoding {
        var encoding = SpreadEncoding()
        encoding.format = format
        encoding.quality = quality
        encoding.lossless = lossless
        return encoding
    }

    /// A 256×256 piece of a scanned-looking sample page (a JPEG, so with
    /// its noise), in colour or as its green channel. (The synthetic gray
    /// pages are too easy: AV1's palette mode stores them exactly in 2 kB.)
    static func pagePiece(gray: Bool) throws -> PixelBuffer {
        let page = try PageDecoder.decode(try Fixtures.bytes(Fixtures.sampleBook.appendingPathComponent("page1.jpg")))
        let c = page.channels, side = 256
        let x0 = page.width / 3, y0 = page.height / 3
        var pixels = [UInt8]()
        for y in 0..<side {
            let start: Int = ((y0 + y) * page.width + x0) * c
            pixels += page.pixels[start ..< start + side * c]
        }
        if gray { pixels = stride(from: 1, to: pixels.count, by: c).map { pixels[$0] } }
        return PixelBuffer(width: side, height: side, channels: gray ? 1 : c, pixels: pixels)
    }

    @Test("Every format and layout decodes back at its size; lossless ones exactly; bytes repeat", arguments: [
        (SpreadFormat.png, false), (.jpeg, false), (.webp, false), (.webp, true), (.avif, false), (.avif, true),
    ])
    func roundTrip(format: SpreadFormat, lossless: Bool) throws {
        for name in ["gray.png", "rgb.png", "rgba.png"] where !(format == .jpeg && name == "rgba.png") {
            let image = try PageDecoder.decode(try Formats.bytes("sources/" + name))
            let bytes = try SpreadEncoder.encode(image, with: Self.encoding(format, lossless: lossless))
            #expect(try SpreadEncoder.encode(image, with: Self.encoding(format, lossless: lossless)) == bytes)
            #expect(ImageFormat.sniff(bytes)?.rawValue == (format == .jpeg ? "jpeg" : format.rawValue))
            let back = try PageDecoder.decode(bytes)
            #expect(back.width == image.width && back.height == image.height)
            // Lossless WebP may change the colour of fully transparent pixels.
            let quality = psnr(clearTransparent(back.straightRGBA.pixels), clearTransparent(image.straightRGBA.pixels))
            if format == .png || lossless {
                #expect(quality == .infinity, "\(format) \(name) lossless")
            } else {
                // The 64×48 sources are dense detail; 85 keeps well above 25 dB on them.
                #expect(quality > 25, "\(format) \(name): \(quality) dB")
            }
            if name == "gray.png" && format != .webp { #expect(back.channels == 1, "\(format) keeps gray as one channel") }
        }
    }

    @Test("Quality rises with --quality and so does the size", arguments: [SpreadFormat.jpeg, .webp, .avif],
          [false, true])
    func qualityKnob(format: SpreadFormat, gray: Bool) throws {
        let image = try Self.pagePiece(gray: gray)
        var last: (size: Int, psnr: Double) = (0, 0)
        for quality in [20, 50, 80, 95] {
            let bytes = try SpreadEncoder.encode(image, with: Self.encoding(format, quality: quality))
            let fidelity = psnr(try PageDecoder.decode(bytes).straightRGBA.pixels, image.straightRGBA.pixels)
            #expect(bytes.count > last.size, "\(format) q\(quality): \(bytes.count) bytes after \(last.size)")
            #expect(fidelity > last.psnr, "\(format) q\(quality): \(fidelity) dB after \(last.psnr)")
            last = (bytes.count, fidelity)
        }
    }

    @Test("A gray spread written as lossy WebP is the same bytes as the same spread given as RGB")
    func webpGrayEqualsRGB() throws {
        let gray = try Self.pagePiece(gray: true)
        let rgb = gray.prepared(forCanvasChannels: 3, over: .black)
        #expect(try SpreadEncoder.encode(gray, with: Self.encoding(.webp)) == SpreadEncoder.encode(rgb, with: Self.encoding(.webp)))
    }

    @Test("File extensions, and what a format cannot hold")
    func formatFacts() {
        #expect(SpreadFormat.allCases.map(\.fileExtension) == ["png", "jpg", "webp", "avif"])
        #expect(SpreadFormat(fileExtension: "JPG") == .jpeg && SpreadFormat(fileExtension: "jpeg") == .jpeg)
        #expect(SpreadFormat(fileExtension: "gif") == nil)
        #expect(!SpreadFormat.jpeg.hasAlpha && SpreadFormat.webp.hasAlpha)
        #expect(SpreadFormat.avif.unavailableReason == nil, "Debian's libavif encodes through libaom")
        #expect(throws: CodecError.self) {
            _ = try SpreadEncoder.encode(PixelBuffer(width: 16384, height: 1, channels: 3), with: Self.encoding(.webp))
        }
    }
}
