import CMihirakiCodecs
import Foundation
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs
import MihirakiRaster

@Suite("PNG encoding and limits", .tags(.codecs), .timeLimit(.minutes(10)))
struct PNGTests {
    @Test("Encode then decode gives the same samples, for every channel count and compression",
          arguments: [1, 2, 3, 4])
    func roundTrip(channels: Int) throws {
        var state: UInt32 = 12345
        let pixels = (0..<(37 * 23 * channels)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        let image = PixelBuffer(width: 37, height: 23, channels: channels, pixels: pixels)
        for compression in PNGCompression.allCases {
            let png = try PNGEncoder.encode(image, compression: compression)
            #expect(try PageDecoder.decode(png) == image)
        }
    }

    /// Every filter type and the two choosers, at several levels, on images
    /// narrower than a pixel's bytes and one row high: libpng must read back
    /// exactly the samples written.
    @Test("Every filter the writer can choose reads back identically through libpng",
          arguments: [MH_PNG_FILTER_NONE, MH_PNG_FILTER_SUB, MH_PNG_FILTER_UP, MH_PNG_FILTER_AVERAGE,
                      MH_PNG_FILTER_PAETH, MH_PNG_FILTER_ADAPTIVE, MH_PNG_FILTER_SAMPLED])
    func everyFilter(filter: mh_png_filter) throws {
        var state: UInt32 = 99
        for (w, h, c) in [(1, 1, 1), (1, 5, 4), (7, 1, 3), (33, 17, 2), (64, 40, 1), (20, 9, 4)] {
            var image = PixelBuffer(width: w, height: h, channels: c)
            for i in image.pixels.indices {
                state = state &* 1_103_515_245 &+ 12345
                // Smooth ramps with noise, so every predictor is used with real residuals.
                image.pixels[i] = UInt8(truncatingIfNeeded: i / 3 + Int(state >> 28))
            }
            for level: Int32 in [0, 1, 6, 12] {
                var buffer = mh_buffer(), error = mh_error()
                let status = image.pixels.withUnsafeBytes {
                    mh_png_encode_deflate($0.baseAddress, UInt32(w), UInt32(h), image.rowBytes, Int32(c), level, filter,
                                          &buffer, &error)
                }
                #expect(status == MH_OK)
                let png = Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
                mh_buffer_free(&buffer)
                // libpng itself, not the fast path, must read it back.
                #expect(try PageDecoder.open(png) { try $0.readAll() } == image, "\(w)×\(h)×\(c) level \(level)")
                #expect(try PageDecoder.decode(png) == image)
            }
        }
    }

    /// The libdeflate fast path must give exactly libpng's samples on every
    /// file it accepts, and decline everything else (libpng then decides).
    @Test("The plain-PNG fast path equals libpng on every PngSuite file it accepts")
    func plainPathMatchesLibpng() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.pngSuite.path).filter { $0.hasSuffix(".png") }
        var accepted = 0
        for name in names.sorted() {
            let bytes = try Fixtures.bytes(Fixtures.pngSuite.appendingPathComponent(name))
            guard let fast = try PageDecoder.decodePlainPNG(bytes, maxPixels: .max) else { continue }
            accepted += 1
            let slow = try PageDecoder.open(bytes) { try $0.readAll() }
            #expect(fast == slow, "\(name)")
            #expect(!name.hasPrefix("x"), "\(name) is corrupt and must be left to libpng")
        }
        #expect(accepted >= 30)
        // Mihiraki's own output, every filter, is plain.
        for compression in PNGCompression.allCases {
            let image = Fixtures.solid(width: 9, height: 7, [1, 2, 3])
            #expect(try PageDecoder.decodePlainPNG(try PNGEncoder.encode(image, compression: compression), maxPixels: .max) == image)
        }
    }

    /// Images that reach every branch of the fast writer: rows narrower and
    /// wider than a vector, every pixel size, runs of zero residuals of every
    /// length around the run threshold and the 258-byte match limit, noise
    /// (stored), flat paper with text-like strokes (runs), ramps (Paeth,
    /// Average).
    static func fastWriterImages() -> [(name: String, image: PixelBuffer)] {
        var images: [(String, PixelBuffer)] = []
        var state: UInt32 = 7
        func random() -> UInt8 {
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        for (w, h) in [(1, 1), (3, 2), (5, 7), (15, 3), (16, 4), (17, 5), (31, 9), (33, 8), (64, 16), (100, 21), (700, 6)] {
            for c in 1...4 {
                var noise = PixelBuffer(width: w, height: h, channels: c)
                for i in noise.pixels.indices { noise.pixels[i] = random() }
                images.append(("noise \(w)×\(h)×\(c)", noise))
                var ramp = PixelBuffer(width: w, height: h, channels: c)
                for i in ramp.pixels.indices { ramp.pixels[i] = UInt8(truncatingIfNeeded: (i % (w * c)) * 3 + (i / (w * c)) * 5 + Int(random() >> 6)) }
                images.append(("ramp \(w)×\(h)×\(c)", ramp))
                var paper = PixelBuffer(width: w, height: h, channels: c)
                for i in paper.pixels.indices {
                    // White with short and long strokes: zero runs of 1 to hundreds of bytes.
                    let x = (i % (w * c)) / c, y = i / (w * c)
                    let stroke = (x * 7 + y * 3) % 263 < Int(random() % 9) || (x + y) % 97 == 0
                    paper.pixels[i] = stroke ? UInt8(random() % 64) : 250
                }
                images.append(("paper \(w)×\(h)×\(c)", paper))
            }
        }
        // Exact run lengths around the threshold (4) and the match limit (258), in one row.
        for length in [1, 2, 3, 4, 5, 6, 257, 258, 259, 260, 261, 262, 516, 517, 518, 1000] {
            var row = PixelBuffer(width: length + 40, height: 3, channels: 1)
            for x in 0..<row.width { row.pixels[x] = x < 20 || x >= 20 + length ? random() : 0 }
            for y in 1..<3 { for x in 0..<row.width { row.pixels[y * row.width + x] = UInt8(truncatingIfNeeded: x * y) } }
            images.append(("zero run \(length)", row))
        }
        var wide = PixelBuffer(width: 90, height: 11, channels: 3)
        for i in wide.pixels.indices { wide.pixels[i] = UInt8(truncatingIfNeeded: i / 7) }
        images.append(("white", Fixtures.solid(width: 300, height: 200, [255, 255, 255])))
        images.append(("gradient", wide))
        return images
    }

    @Test("The fast writer: SIMD and scalar give the same bytes, and libpng reads back exactly what was written")
    func fastWriter() throws {
        var stored = 0, dynamic = 0
        for (name, image) in Self.fastWriterImages() {
            let png = try PNGEncoder.encodeFast(image, reference: false)
            #expect(png == (try PNGEncoder.encodeFast(image, reference: true)), "\(name): SIMD and scalar bytes differ")
            #expect(try PageDecoder.open(png) { try $0.readAll() } == image, "\(name)")
            #expect(try PageDecoder.decodePlainPNG(png, maxPixels: .max) == image, "\(name)")
            #expect(png == (try PNGEncoder.encode(image, compression: .fast)))
            // The first block's type, after the zlib header at byte 33 + 8 + 2: 00 stored, 10 dynamic.
            switch (png[43] >> 1) & 3 {
            case 0: stored += 1
            case 2: dynamic += 1
            default: Issue.record("\(name): block type \(png[43] >> 1 & 3)")
            }
        }
        #expect(stored >= 10 && dynamic >= 10, "stored \(stored), dynamic \(dynamic)")
    }

    @Test("The fast writer stays close to the default's size on paper and never grows noise past stored bytes")
    func fastWriterSize() throws {
        var paper = PixelBuffer(width: 600, height: 400, channels: 1)
        for y in 0..<400 { for x in 0..<600 { paper.pixels[y * 600 + x] = (x / 4 + y / 6) % 11 == 0 ? 30 : 245 } }
        let fast = try PNGEncoder.encode(paper, compression: .fast).count
        let standard = try PNGEncoder.encode(paper, compression: .default).count
        #expect(fast < 600 * 401 / 8, "zero runs must cost far less than a byte each: \(fast)")
        #expect(Double(fast) < Double(standard) * 4, "\(fast) against \(standard)")
        var noise = PixelBuffer(width: 500, height: 300, channels: 3)
        var state: UInt64 = 1
        for i in noise.pixels.indices { state = state &* 6364136223846793005 &+ 1; noise.pixels[i] = UInt8(state >> 56) }
        let stored = try PNGEncoder.encode(noise, compression: .fast).count
        // Stored blocks cost 5 bytes in 65,535; the frame 57 bytes and the zlib wrapper 6.
        let rows = 300 * (500 * 3 + 1)
        #expect(stored == 57 + 6 + rows + 5 * ((rows + 65534) / 65535))
    }

    @Test("Encoding is deterministic and writes no time stamp")
    func deterministic() throws {
        let image = Fixtures.solid(width: 50, height: 40, [1, 2, 3])
        let a = try PNGEncoder.encode(image), b = try PNGEncoder.encode(image)
        #expect(a == b)
        let text = String(decoding: a, as: UTF8.self)
        #expect(!text.contains("tIME") && !text.contains("tEXt"))
    }

    @Test("A header claiming 100000×100000 is refused before decoding")
    func maxPixels() throws {
        let png = Fixtures.pngWithHeader(width: 100_000, height: 100_000)
        let header = try PageDecoder.header(of: png)
        #expect(header.width == 100_000)
        #expect {
            _ = try PageDecoder.decode(png)
        } throws: { ($0 as? CodecError)?.code == .tooLarge }
        #expect {
            _ = try PageDecoder.decode(try Fixtures.solidPNG(width: 20, height: 20, [0]), maxPixels: 399)
        } throws: { ($0 as? CodecError)?.code == .tooLarge }
        #expect(try PageDecoder.decode(try Fixtures.solidPNG(width: 20, height: 20, [0]), maxPixels: 400).width == 20)
    }

    @Test("Formats are told by their bytes")
    func sniffing() throws {
        #expect(ImageFormat.sniff(try Fixtures.solidPNG(width: 1, height: 1, [0])) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("hello".utf8)) == nil)
        #expect {
            _ = try PageDecoder.decode(Array("GIF89a......".utf8))
        } throws: { ($0 as? CodecError)?.message.contains("GIF") == true }
        #expect {
            _ = try PageDecoder.decode([])
        } throws: { ($0 as? CodecError)?.message == "empty file" }
        #expect {
            _ = try PageDecoder.decode(Array("just some text".utf8))
        } throws: { ($0 as? CodecError)?.message == "not an image Mihiraki reads (\(ImageFormat.readableNames))" }
    }

    @Test("Truncated PNGs are errors", arguments: [0.3, 0.6, 0.95])
    func truncated(fraction: Double) throws {
        var image = PixelBuffer(width: 64, height: 64, channels: 3)
        for i in image.pixels.indices { image.pixels[i] = UInt8(truncatingIfNeeded: i &* 7919 >> 3) }
        let png = try PNGEncoder.encode(image, compression: .fast)
        #expect(throws: CodecError.self) { _ = try PageDecoder.decode(Array(png.prefix(Int(Double(png.count) * fraction)))) }
    }

    /// Found by the fuzzer: an iTXt chunk that claims 1.9 GB in a 597-byte
    /// file made libpng allocate the 1.9 GB before finding the file short.
    /// Every chunk's length is now checked against the bytes that remain
    /// before libpng reads the file, so the claim is refused without memory.
    @Test("A chunk claiming more bytes than the file holds is refused by name, before any allocation")
    func chunkLongerThanFile() throws {
        let bytes = try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("fuzz-regressions/png-itxt-claims-1.9-gb.png"))
        let expected = "file is truncated: its iTXt chunk claims 1929379903 bytes"
        let named: (any Error) -> Bool = { ($0 as? CodecError)?.message.hasPrefix(expected) == true }
        #expect(performing: { _ = try PageDecoder.decode(bytes) }, throws: named)
        #expect(performing: { _ = try PageDecoder.withRows(bytes) { _, _, _, _ in } }, throws: named)
    }
}
