import MihirakiTestSupport
import Testing
@testable import MihirakiRaster

@Suite("Colours, compositing and output layout", .tags(.unit), .timeLimit(.minutes(10)))
struct CompositingTests {
    @Test("Colour syntax: #RRGGBB, #RRGGBBAA, #RGB, CSS names, transparent")
    func parsing() {
        #expect(Color(parsing: "#000000") == .black)
        #expect(Color(parsing: "#FFFFFF") == .white)
        #expect(Color(parsing: "#12345678") == Color(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78))
        #expect(Color(parsing: "#abc") == Color(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(Color(parsing: "RebeccaPurple") == Color(red: 0x66, green: 0x33, blue: 0x99))
        #expect(Color(parsing: "transparent")?.alpha == 0)
        #expect(Color(parsing: "papayawhip") == Color(red: 0xFF, green: 0xEF, blue: 0xD5))
        for bad in ["", "#", "#12345", "#GGGGGG", "blurple", "123456", "#1234567"] { #expect(Color(parsing: bad) == nil) }
        #expect(Color(red: 1, green: 2, blue: 3).description == "#010203")
        #expect(Color(red: 1, green: 2, blue: 3, alpha: 4).description == "#01020304")
    }

    @Test("Source-over on an opaque background: (c·a + bg·(255 − a)) / 255, rounded")
    func sourceOver() {
        let page = PixelBuffer(width: 3, height: 1, channels: 4, pixels: [255, 0, 0, 255, 255, 0, 0, 0, 255, 0, 0, 128])
        let ready = page.prepared(forCanvasChannels: 4, over: Color(red: 0, green: 0, blue: 255))
        #expect(ready.pixels == [255, 0, 0, 255, 0, 0, 255, 255, 128, 0, 127, 255])
        let grayPage = PixelBuffer(width: 2, height: 1, channels: 2, pixels: [200, 255, 200, 51])
        let gray = grayPage.prepared(forCanvasChannels: 1, over: Color(gray: 100))
        #expect(gray.channels == 1 && gray.pixels == [200, 120])
    }

    @Test("On a transparent background the page's alpha survives, premultiplied, and is restored on output")
    func transparentBackground() {
        let page = PixelBuffer(width: 2, height: 1, channels: 4, pixels: [200, 100, 50, 128, 10, 20, 30, 255])
        let ready = page.prepared(forCanvasChannels: 4, over: .transparent)
        #expect(ready.pixels == [100, 50, 25, 128, 10, 20, 30, 255])
        let out = ready.reducedForOutput()
        #expect(out.channels == 4)
        #expect(out.pixels == [199, 100, 50, 128, 10, 20, 30, 255])
    }

    @Test("Output layout: gray when opaque and neutral, RGB when opaque, RGBA otherwise")
    func outputLayout() {
        let gray = PixelBuffer(width: 2, height: 1, channels: 4, pixels: [9, 9, 9, 255, 200, 200, 200, 255])
        #expect(gray.reducedForOutput() == PixelBuffer(width: 2, height: 1, channels: 1, pixels: [9, 200]))
        let color = PixelBuffer(width: 2, height: 1, channels: 4, pixels: [9, 9, 9, 255, 200, 201, 200, 255])
        #expect(color.reducedForOutput() == PixelBuffer(width: 2, height: 1, channels: 3, pixels: [9, 9, 9, 200, 201, 200]))
        let clear = PixelBuffer(width: 2, height: 1, channels: 4, pixels: [9, 9, 9, 255, 0, 0, 0, 0])
        #expect(clear.reducedForOutput().channels == 4)
    }

    @Test("Fill and blit clip to the canvas")
    func fillAndBlit() {
        var canvas = PixelBuffer(width: 4, height: 3, channels: 1)
        canvas.fill(x: -1, y: 1, width: 3, height: 5, color: Color(gray: 7))
        #expect(canvas.pixels == [0, 0, 0, 0, 7, 7, 0, 0, 7, 7, 0, 0])
        let tile = PixelBuffer(width: 2, height: 2, channels: 1, pixels: [1, 2, 3, 4])
        canvas.blit(tile, x: 3, y: -1)
        #expect(canvas.pixels == [0, 0, 0, 3, 7, 7, 0, 0, 7, 7, 0, 0])
    }

    @Test("Blank over background: source-over, premultiplied")
    func premultipliedOver() {
        #expect(Color.white.premultipliedOver(.black) == .white)
        #expect(Color(red: 255, green: 255, blue: 255, alpha: 128).premultipliedOver(.black) == Color(gray: 128))
        #expect(Color(red: 255, green: 0, blue: 0, alpha: 128).premultipliedOver(.transparent)
                == Color(red: 128, green: 0, blue: 0, alpha: 128))
    }
}

@Suite("EXIF orientation", .tags(.unit), .timeLimit(.minutes(10)))
struct OrientationTests {
    /// A 3×2 image with a distinct value at every pixel:
    ///   1 2 3
    ///   4 5 6
    let image = PixelBuffer(width: 3, height: 2, channels: 1, pixels: [1, 2, 3, 4, 5, 6])

    @Test("Each orientation turns the stored image upright", arguments: [
        (1, 3, [1, 2, 3, 4, 5, 6]),
        (2, 3, [3, 2, 1, 6, 5, 4]),
        (3, 3, [6, 5, 4, 3, 2, 1]),
        (4, 3, [4, 5, 6, 1, 2, 3]),
        (5, 2, [1, 4, 2, 5, 3, 6]),
        (6, 2, [4, 1, 5, 2, 6, 3]),
        (7, 2, [6, 3, 5, 2, 4, 1]),
        (8, 2, [3, 6, 2, 5, 1, 4]),
    ])
    func orientations(orientation: Int, width: Int, expected: [UInt8]) {
        let upright = image.oriented(exif: orientation)
        #expect(upright.width == width)
        #expect(upright.pixels == expected)
    }

    @Test("Multi-channel pixels move as a whole")
    func channels() {
        let rgb = PixelBuffer(width: 2, height: 1, channels: 3, pixels: [1, 2, 3, 4, 5, 6])
        #expect(rgb.oriented(exif: 6).pixels == [1, 2, 3, 4, 5, 6])
        #expect(rgb.oriented(exif: 2).pixels == [4, 5, 6, 1, 2, 3])
    }
}
