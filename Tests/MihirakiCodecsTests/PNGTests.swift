import CMihirakiCodecs
import Foundation
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs
import MihirakiRaster

@Suite("PNG encoding and limits", .tags(.codecs), .timeLimit(.minutes(3)))
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
        } throws: { ($0 as? CodecError)?.message == "not an image Mihiraki reads (PNG, JPEG, WebP, GIF, AVIF and JPEG XL)" }
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
