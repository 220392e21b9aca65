import Foundation
import MihirakiRaster
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs

/// TestImages/formats, made by scripts/make-format-fixtures.py with the formats' own encoders.
enum Formats {
    static let folder = Fixtures.testImages.appendingPathComponent("formats")
    static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes(folder.appendingPathComponent(name)) }
    /// What the reference decoder (Pillow, or djxl for JPEG XL) made of `name`: straight RGBA.
    static func reference(_ name: String) throws -> [UInt8] { try bytes(name + ".rgba") }
    /// A committed source picture, decoded as RGBA.
    static func source(_ name: String) throws -> PixelBuffer {
        try PageDecoder.decode(try bytes("sources/" + name)).straightRGBA
    }
}

func clearTransparent(_ rgba: [UInt8]) -> [UInt8] {
    var out = rgba
    for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] == 0 { out[i] = 0; out[i + 1] = 0; out[i + 2] = 0 }
    return out
}

/// Peak signal-to-noise ratio of two RGBA sample arrays (infinity when equal).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var sum = 0.0
    for i in a.indices { let d = Double(a[i]) - Double(b[i]); sum += d * d }
    return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count)))
}

@Suite("WebP, GIF, AVIF and JPEG XL pages", .tags(.codecs), .timeLimit(.minutes(10)))
struct FormatTests {
    /// A GIF with neither a global nor a local colour table was refused;
    /// Pillow reads its indices as gray levels, and so does Mihiraki.
    @Test("A GIF without any colour table reads its indices as gray levels, as Pillow does")
    func gifWithoutPalette() throws {
        // GIF89a, 2×1, no tables; LZW codes clear, 5, 200, end at 9 bits each.
        let gif: [UInt8] = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00,
                            0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x08, 0x05, 0x00, 0x0B, 0x20, 0x0B, 0x08, 0x00, 0x3B]
        let image = try PageDecoder.decode(gif).straightRGBA
        #expect(image.width == 2 && image.height == 1)
        #expect(image.pixels == [5, 5, 5, 255, 200, 200, 200, 255])
    }

    /// Each fixture against the reference decoder: exact, or at least the given PSNR for lossy data.
    @Test("Each format decodes to what its reference decoder gives", arguments: [
        ("lossless.webp", nil), ("alpha.webp", nil), ("animated.webp", nil), ("lossy.webp", 45.0),
        ("lossy-alpha.webp", 45.0),
        ("static.gif", nil), ("interlaced.gif", nil), ("transparent.gif", nil),
        ("lossless.avif", nil), ("alpha-lossless.avif", nil), ("lossy420.avif", 45.0), ("10bit444.avif", 45.0),
        ("12bit422.avif", 45.0), ("mono.avif", 45.0),
        ("lossless.jxl", nil), ("alpha.jxl", nil), ("gray.jxl", nil), ("lossy.jxl", 45.0),
    ] as [(String, Double?)])
    func matchesReference(name: String, minimumPSNR: Double?) throws {
        let image = try PageDecoder.decode(try Formats.bytes(name))
        let header = try PageDecoder.header(of: try Formats.bytes(name))
        #expect(header.width == image.width && header.height == image.height && image.width == 64 && image.height == 48)
        // Colour under alpha 0 is not a picture's: both sides count it as transparent black.
        let ours = clearTransparent(image.straightRGBA.pixels), reference = clearTransparent(try Formats.reference(name))
        try #require(ours.count == reference.count)
        if let minimumPSNR {
            let value = psnr(ours, reference)
            #expect(value >= minimumPSNR, "\(name): \(value) dB")
        } else {
            #expect(ours == reference, "\(name): \(psnr(ours, reference)) dB, not exact")
        }
    }

    @Test("Lossless files give back their source exactly; gray stays one channel")
    func losslessEqualsSource() throws {
        let rgb = try Formats.source("rgb.png")
        for name in ["lossless.webp", "lossless.avif", "lossless.jxl", "animated.webp"] {
            let decoded = try PageDecoder.decode(try Formats.bytes(name)).straightRGBA
            #expect(decoded == rgb, "\(name): \(psnr(decoded.pixels, rgb.pixels)) dB")
        }
        let rgba = try Formats.source("rgba.png")
        for name in ["alpha.webp", "alpha.jxl", "alpha-lossless.avif"] {
            let decoded = try PageDecoder.decode(try Formats.bytes(name))
            #expect(decoded.channels == 4)
            // Colour under alpha 0 is free for an encoder to change.
            let visible = (0..<64 * 48).filter { rgba.pixels[$0 * 4 + 3] != 0 }
            #expect(visible.allSatisfy { i in (0..<4).allSatisfy { decoded.pixels[i * 4 + $0] == rgba.pixels[i * 4 + $0] } },
                    "\(name)")
        }
        for name in ["gray.jxl", "mono.avif"] {
            let decoded = try PageDecoder.decode(try Formats.bytes(name))
            let header = try PageDecoder.header(of: try Formats.bytes(name))
            #expect(decoded.channels == 1 && header.isGray, "\(name)")
        }
    }

    /// The expected picture is computed here, independently of the EXIF code
    /// the decoder maps the transforms to: turn anticlockwise, then mirror.
    @Test("AVIF irot and imir are applied: quarter turns anticlockwise, then the mirror",
          arguments: [0, 1, 2, 3], [nil, 0, 1] as [Int?])
    func transforms(rotation: Int, mirror: Int?) throws {
        var expected = try Formats.source("rgb.png")
        for _ in 0..<rotation { expected = turnedAnticlockwise(expected) }
        if let mirror { expected = mirrored(expected, leftRight: mirror == 1) }
        let name = "irot\(rotation)" + (mirror.map { "-imir\($0)" } ?? "") + ".avif"
        let decoded = try PageDecoder.decode(try Formats.bytes(name)).straightRGBA
        #expect(decoded == expected, "\(name): not the expected turn and mirror")
        let header = try PageDecoder.header(of: try Formats.bytes(name))
        #expect(header.width == expected.width && header.height == expected.height)
    }

    func turnedAnticlockwise(_ image: PixelBuffer) -> PixelBuffer {
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        let w = image.width, h = image.height
        for y in 0..<w { for x in 0..<h { for c in 0..<4 {  // output is h wide, w high
            pixels[(y * h + x) * 4 + c] = image.pixels[(x * w + (w - 1 - y)) * 4 + c]
        } } }
        return PixelBuffer(width: h, height: w, channels: 4, pixels: pixels)
    }

    func mirrored(_ image: PixelBuffer, leftRight: Bool) -> PixelBuffer {
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        let w = image.width, h = image.height
        for y in 0..<h { for x in 0..<w { for c in 0..<4 {
            let (sx, sy) = leftRight ? (w - 1 - x, y) : (x, h - 1 - y)
            pixels[(y * w + x) * 4 + c] = image.pixels[(sy * w + sx) * 4 + c]
        } } }
        return PixelBuffer(width: w, height: h, channels: 4, pixels: pixels)
    }

    /// Browsers show the screen transparent outside the first frame; Pillow
    /// fills it with the background colour. Inside the frame the two agree.
    @Test("A GIF frame smaller than its screen lands at its offset on a transparent screen")
    func gifOffset() throws {
        let image = try PageDecoder.decode(try Formats.bytes("offset.gif"))
        let reference = try Formats.reference("offset.gif"), ours = image.straightRGBA.pixels
        for y in 8..<38 { for x in 10..<50 { for c in 0..<4 {
            #expect(ours[(y * 64 + x) * 4 + c] == reference[(y * 64 + x) * 4 + c])
        } } }
        #expect(image.channels == 4 && image.width == 64 && image.height == 48)
        #expect(image.rgba(x: 5, y: 5).alpha == 0 && image.rgba(x: 60, y: 44).alpha == 0)
        #expect(image.rgba(x: 10, y: 8).alpha == 255 && image.rgba(x: 49, y: 37).alpha == 255)
        #expect(image.rgba(x: 50, y: 38).alpha == 0)
    }

    @Test("Truncated and damaged files of every new format are errors, never crashes", arguments: [
        "lossless.webp", "lossy.webp", "animated.webp", "static.gif", "interlaced.gif", "lossy420.avif",
        "alpha-lossless.avif", "lossless.jxl", "lossy.jxl",
    ])
    func damaged(name: String) throws {
        let whole = try Formats.bytes(name)
        for fraction in [0.0, 0.05, 0.3, 0.6, 0.9, 0.99] {
            let cut = Array(whole.prefix(Int(Double(whole.count) * fraction)))
            #expect(throws: CodecError.self, "\(name) cut at \(fraction)") { _ = try PageDecoder.decode(cut) }
            // The render path (a lossy WebP is read from its YUV there).
            #expect(throws: CodecError.self, "\(name) cut at \(fraction)") { _ = try Self.rows(cut) }
        }
        var noise = UInt64(7)
        for _ in 0..<40 {
            var flipped = whole
            for _ in 0..<4 {
                noise = noise &* 6364136223846793005 &+ 1442695040888963407
                flipped[Int(noise >> 33) % flipped.count] ^= UInt8(truncatingIfNeeded: noise >> 20) | 1
            }
            _ = try? PageDecoder.decode(flipped, maxPixels: 1 << 22)  // an error or pixels; never a crash
            _ = try? Self.rows(flipped)
        }
    }

    /// `image` as WebP by libwebp, lossy at quality 80 or lossless, through the spread writer.
    static func webp(_ image: PixelBuffer, lossless: Bool = false) throws -> [UInt8] {
        var encoding = SpreadEncoding()
        encoding.format = .webp
        encoding.quality = lossless ? 50 : 80
        encoding.lossless = lossless
        return try SpreadEncoder.encode(image, with: encoding)
    }

    /// The samples per pixel and rows `withRows` (the render path) delivers.
    static func rows(_ bytes: [UInt8]) throws -> (channels: Int, samples: [UInt8]) {
        try PageDecoder.withRows(bytes, maxPixels: 1 << 22) { width, height, channels, next in
            var samples = [UInt8](repeating: 0, count: width * height * channels + 16)
            try samples.withUnsafeMutableBufferPointer { out in
                for y in 0..<height { try next(out.baseAddress! + y * width * channels) }
            }
            return (channels, Array(samples.prefix(width * height * channels)))
        }
    }

    @Test("A lossy WebP with neutral chroma is read as gray (libwebp's red and blue, green within a level); colour pages, even colour only in the last rows, are read as before")
    func webpGray() throws {
        var state: UInt32 = 5
        var gray = PixelBuffer(width: 123, height: 301, channels: 1)
        for i in gray.pixels.indices {
            state = state &* 1_103_515_245 &+ 12345
            gray.pixels[i] = UInt8(truncatingIfNeeded: (i % 123) * 2 + i / 123 / 3 + Int(state >> 28))
        }
        let grayWebP = try Self.webp(gray)
        let (channels, samples) = try Self.rows(grayWebP)
        #expect(channels == 1)
        let rgb = try PageDecoder.decode(grayWebP)  // libwebp's own RGB
        #expect(rgb.channels == 3)
        var greenOff = 0
        for i in samples.indices {
            let (r, g, b) = (rgb.pixels[3 * i], rgb.pixels[3 * i + 1], rgb.pixels[3 * i + 2])
            #expect(samples[i] == r && samples[i] == b && abs(Int(g) - Int(r)) <= 1, "sample \(i)")
            if g != r { greenOff += 1 }
        }
        #expect(greenOff > 0, "libwebp's green of a gray picture was expected to differ somewhere; the gray path exists for it")

        // Colour everywhere, and colour only in the last rows (read to the end before the decision).
        var colour = PixelBuffer(width: 123, height: 301, channels: 3)
        for i in colour.pixels.indices { colour.pixels[i] = gray.pixels[i / 3] }
        var late = colour
        for i in colour.pixels.indices where i % 3 == 0 { colour.pixels[i] = UInt8(truncatingIfNeeded: Int(colour.pixels[i]) + 60) }
        for y in 290..<301 { for x in 0..<123 { late.pixels[(y * 123 + x) * 3] = 250; late.pixels[(y * 123 + x) * 3 + 2] = 10 } }
        for picture in [colour, late] {
            let bytes = try Self.webp(picture)
            let (channels, samples) = try Self.rows(bytes)
            let decoded = try PageDecoder.decode(bytes)
            #expect(channels == 3 && samples == decoded.pixels)
        }

        // Lossless pages are decoded as RGB and found gray when every pixel is.
        let lossless = try Self.webp(colour.withEveryPixelGray(), lossless: true)
        let read = try Self.rows(lossless)
        #expect(read.channels == 1 && read.samples == colour.withEveryPixelGray().pixels.enumerated().filter { $0.offset % 3 == 0 }.map(\.element))
        #expect(try Self.rows(try Self.webp(colour, lossless: true)).channels == 3)
    }

    @Test("Headers are read without the pixels; a header over the pixel limit is refused first")
    func headers() throws {
        let formats: [(String, ImageFormat)] = [("lossy.webp", .webp), ("static.gif", .gif), ("lossy420.avif", .avif),
                                                ("lossy.jxl", .jpegXL)]
        for (name, format) in formats {
            let header = try PageDecoder.header(of: try Formats.bytes(name))
            #expect(header.format == format && header.width == 64 && header.height == 48)
            #expect { _ = try PageDecoder.decode(try Formats.bytes(name), maxPixels: 1000) } throws: {
                ($0 as? CodecError)?.code == .tooLarge
            }
        }
    }
}

extension PixelBuffer {
    /// RGB with each pixel's red copied to green and blue.
    func withEveryPixelGray() -> PixelBuffer {
        var out = self
        for i in stride(from: 0, to: out.pixels.count, by: 3) { out.pixels[i + 1] = out.pixels[i]; out.pixels[i + 2] = out.pixels[i] }
        return out
    }
}
