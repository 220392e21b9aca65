import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs
import MihirakiRaster

/// Four flat quadrants (red, green, blue, white), large enough that JPEG keeps
/// their colours within a few levels away from the edges.
func quadrants(width: Int = 64, height: Int = 48) -> PixelBuffer {
    let colors: [[UInt8]] = [[220, 30, 30], [30, 200, 40], [40, 50, 210], [250, 250, 250]]
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width { pixels += colors[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)] }
    }
    return PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
}

func close(_ a: Color, _ b: Color, within tolerance: Int = 8) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

@Suite("JPEG decoding", .tags(.codecs), .timeLimit(.minutes(10)))
struct JPEGTests {
    @Test("Baseline and progressive colour JPEGs decode to RGB", arguments: [false, true])
    func color(progressive: Bool) throws {
        let source = quadrants()
        let jpeg = try JPEGEncoder.encode(source, quality: 95, progressive: progressive)
        let header = try PageDecoder.header(of: jpeg)
        #expect(header.format == .jpeg && header.width == 64 && header.height == 48 && !header.isGray)
        let image = try PageDecoder.decode(jpeg)
        #expect(image.channels == 3 && image.width == 64 && image.height == 48)
        for (x, y) in [(8, 8), (56, 8), (8, 40), (56, 40)] {
            #expect(close(image.rgba(x: x, y: y), source.rgba(x: x, y: y)))
        }
    }

    @Test("Gray JPEGs decode to one channel")
    func gray() throws {
        let source = Fixtures.solid(width: 40, height: 24, [77])
        let image = try PageDecoder.decode(try JPEGEncoder.encode(source, quality: 95))
        #expect(image.channels == 1)
        #expect(image.pixels.allSatisfy { abs(Int($0) - 77) <= 1 })
        #expect(try PageDecoder.header(of: try JPEGEncoder.encode(source)).isGray)
    }

    /// CMYK as Photoshop writes it: Adobe marker, inverted samples, plain CMYK
    /// or YCCK. (C, M, Y, K) = (0, 255, 255, 0) is red; stored inverted that is
    /// (255, 0, 0, 255).
    @Test("Adobe CMYK and YCCK (inverted) decode to the right colour", arguments: [false, true])
    func adobeCMYK(ycck: Bool) throws {
        let inverted = Fixtures.solid(width: 32, height: 32, [255, 0, 0, 255])
        let jpeg = try JPEGEncoder.encode(inverted, quality: 100, ycck: ycck, adobeMarker: true)
        let image = try PageDecoder.decode(jpeg)
        #expect(image.channels == 3)
        #expect(close(image.rgba(x: 16, y: 16), Color(red: 255, green: 0, blue: 0), within: 4))
    }

    @Test("CMYK without an Adobe marker is taken as plain (not inverted) CMYK")
    func plainCMYK() throws {
        // (C, M, Y, K) = (0, 0, 255, 64): yellow darkened by a quarter.
        let plain = Fixtures.solid(width: 32, height: 32, [0, 0, 255, 64])
        let image = try PageDecoder.decode(try JPEGEncoder.encode(plain, quality: 100, adobeMarker: false))
        #expect(close(image.rgba(x: 16, y: 16), Color(red: 191, green: 191, blue: 0), within: 4))
    }

    @Test("CMYK conversion arithmetic")
    func cmykArithmetic() {
        let cmyk = PixelBuffer(width: 2, height: 1, channels: 4, pixels: [0, 128, 255, 0, 10, 20, 30, 40])
        #expect(JPEGPageDecoder.cmykToRGB(cmyk, adobeInverted: false).pixels == [255, 127, 0, 207, 198, 190])
        #expect(JPEGPageDecoder.cmykToRGB(cmyk, adobeInverted: true).pixels == [0, 0, 0, 2, 3, 5])
    }

    @Test("EXIF orientation 1–8 is applied, big- and little-endian", arguments: 1...8)
    func orientation(value: Int) throws {
        let source = quadrants()
        for bigEndian in [false, true] {
            let jpeg = try JPEGEncoder.encode(source, quality: 95,
                                              exif: Fixtures.exifOrientation(UInt16(value), bigEndian: bigEndian))
            let header = try PageDecoder.header(of: jpeg)
            #expect(header.orientation == value)
            let image = try PageDecoder.decode(jpeg)
            let expected = source.oriented(exif: value)
            #expect(image.width == expected.width && image.height == expected.height)
            #expect(header.width == expected.width && header.height == expected.height)
            for (fx, fy) in [(0.15, 0.15), (0.85, 0.15), (0.15, 0.85), (0.85, 0.85)] {
                let x = Int(Double(image.width) * fx), y = Int(Double(image.height) * fy)
                #expect(close(image.rgba(x: x, y: y), expected.rgba(x: x, y: y)))
            }
        }
    }

    @Test("Truncated JPEGs are errors, not silently grey pages", arguments: [0.2, 0.5, 0.9])
    func truncated(fraction: Double) throws {
        let jpeg = try JPEGEncoder.encode(quadrants(width: 256, height: 256), quality: 90)
        let cut = Array(jpeg.prefix(Int(Double(jpeg.count) * fraction)))
        #expect(throws: CodecError.self) { _ = try PageDecoder.decode(cut) }
    }

    @Test("A header alone (SOI + garbage) is an error")
    func garbage() {
        #expect(throws: CodecError.self) { _ = try PageDecoder.decode([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4, 5]) }
        #expect(throws: CodecError.self) { _ = try PageDecoder.header(of: [0xFF, 0xD8, 0xFF]) }
    }
}

@Suite("EXIF parsing", .tags(.codecs), .timeLimit(.minutes(10)))
struct ExifTests {
    @Test("Orientation is read from either byte order; malformed blocks give nil")
    func parse() {
        for value in 1...8 {
            #expect(ExifOrientation.parse(Array(Fixtures.exifOrientation(UInt16(value)).dropFirst(6))) == value)
            #expect(ExifOrientation.parse(Array(Fixtures.exifOrientation(UInt16(value), bigEndian: true).dropFirst(6))) == value)
        }
        #expect(ExifOrientation.parse(Array(Fixtures.exifOrientation(9).dropFirst(6))) == nil)
        #expect(ExifOrientation.parse([]) == nil)
        #expect(ExifOrientation.parse([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]) == nil)
        let block = Array(Fixtures.exifOrientation(6).dropFirst(6))
        for cut in 0..<block.count { _ = ExifOrientation.parse(Array(block.prefix(cut))) }  // never traps
    }
}

@Suite("JPEGs from another encoder", .tags(.codecs), .timeLimit(.minutes(10)))
struct ForeignJPEGTests {
    /// TestImages/jpeg/ was written by Pillow (scripts/make-jpeg-seeds.py):
    /// red top-left, green top-right, blue bottom-left, red bottom-right,
    /// 40×24. Pillow writes CMYK with an Adobe marker, inverted.
    @Test("Pillow's baseline, progressive, 4:4:4, gray, Adobe CMYK and EXIF-rotated JPEGs decode right",
          arguments: ["baseline", "progressive", "subsampled-444", "gray", "cmyk-adobe", "exif-orientation-6"])
    func decode(name: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("jpeg/\(name).jpg"))
        let image = try PageDecoder.decode(bytes)
        let rotated = name == "exif-orientation-6"
        #expect(image.width == (rotated ? 24 : 40) && image.height == (rotated ? 40 : 24))
        // Sample the middle of each quadrant, in stored coordinates, then map through the rotation.
        let samples: [(Int, Int, Color)] = [(8, 5, Color(red: 200, green: 40, blue: 40)),
                                            (31, 5, Color(red: 30, green: 200, blue: 60)),
                                            (8, 18, Color(red: 40, green: 50, blue: 220))]
        for (x, y, expected) in samples {
            let (px, py) = rotated ? (23 - y, x) : (x, y)
            let actual = image.rgba(x: px, y: py)
            if name == "gray" {
                let luma = (299 * Int(expected.red) + 587 * Int(expected.green) + 114 * Int(expected.blue)) / 1000
                #expect(abs(Int(actual.red) - luma) <= 6 && actual.isGray, "\(actual)")
            } else {
                #expect(close(actual, expected, within: 12), "\(name) at (\(x), \(y)): \(actual)")
            }
        }
    }
}
