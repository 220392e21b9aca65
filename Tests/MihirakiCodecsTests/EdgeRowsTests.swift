import Foundation
import MihirakiRaster
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs

/// Pairing's edges read from a JPEG's coefficients in the decode that draws
/// the page (`PageDecoder.EdgeRequest`): the rows are unchanged, the edges
/// (luma, and Cb and Cr in colour) are what the decoded pixels say, and the
/// same at every scale.
@Suite("Edges from JPEG coefficients", .tags(.codecs), .timeLimit(.minutes(10)))
struct EdgeRowsTests {
    /// Rows of a page, with or without asking for its edges on the way.
    static func rows(_ bytes: [UInt8], atLeast: (width: Int, height: Int)?, edges: PageDecoder.EdgeRequest?) throws -> PixelBuffer {
        try PageDecoder.withRows(bytes, colorManage: false, atLeast: atLeast, edges: edges) { width, height, channels, next in
            try PixelBuffer(width: width, height: height, channels: channels) { out in
                for y in 0..<height { try next(out.baseAddress! + y * width * channels) }
            }
        }
    }

    /// A page with detail everywhere and no clipped samples, `channels` 1 or 3.
    static func page(width: Int, height: Int, channels: Int) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height, channels: channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels {
                    let wave = (x * (7 + c) + y * 3) % 97 + ((x / 5 + y / 7) & 1) * 60
                    image.pixels[(y * width + x) * channels + c] = UInt8(40 + wave)
                }
            }
        }
        return image
    }

    static func depth(_ height: Int) -> Int { height >= 1024 ? 12 : 5 }

    /// The luma (BT.601, 1/256 levels) of a decoded gray or RGB image's `columns` in row `y`, summed.
    static func luma(_ image: PixelBuffer, row y: Int, columns: Range<Int>) -> Int {
        columns.reduce(0) { sum, x in
            let i = (y * image.width + x) * image.channels, p = image.pixels
            return sum + (image.channels == 1 ? Int(p[i]) << 8 : 77 * Int(p[i]) + 150 * Int(p[i + 1]) + 29 * Int(p[i + 2]))
        }
    }

    @Test("Rows are the same pixels whether or not the edges were taken, at every scale, baseline and progressive, gray and colour",
          arguments: [(1, false), (3, false), (1, true), (3, true)])
    func sameRows(channels: Int, progressive: Bool) throws {
        let bytes = try JPEGEncoder.encode(Self.page(width: 203, height: 1157, channels: channels), quality: 85,
                                           progressive: progressive)
        let full = PageDecoder.EdgeRequest(depth: Self.depth(_:), stripDepth: { _ in 24 })
        _ = try Self.rows(bytes, atLeast: nil, edges: full)
        #expect(full.rows?.chroma.count == (channels == 3 ? 4 : 0))
        for atLeast in [nil, (203, 1157), (101, 578), (51, 290), (1, 1)] as [(width: Int, height: Int)?] {
            let request = PageDecoder.EdgeRequest(depth: Self.depth(_:), stripDepth: { _ in 24 })
            let plain = try Self.rows(bytes, atLeast: atLeast, edges: nil)
            let shared = try Self.rows(bytes, atLeast: atLeast, edges: request)
            #expect(plain == shared, "\(String(describing: atLeast))")
            // The edges are the stored page's, whatever scale draws it; at 1/8 (here only
            // for 1×1) libjpeg keeps the DC coefficients alone, and none are offered.
            if atLeast.map({ $0.height == 1 }) == true {
                #expect(request.rows == nil)
            } else {
                #expect(request.rows?.left.count == 1157 && request.rows?.depth == 12)
                #expect(request.rows == full.rows, "\(String(describing: atLeast))")
            }
        }
    }

    @Test("Pillow's JPEGs: edges from every YCbCr and gray file, none from CMYK or a rotated page, and the same rows",
          arguments: ["baseline", "progressive", "subsampled-444", "gray", "cmyk-adobe", "exif-orientation-6"])
    func foreign(name: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("jpeg/\(name).jpg"))
        let request = PageDecoder.EdgeRequest(depth: { _ in 3 })
        #expect(try Self.rows(bytes, atLeast: nil, edges: request) == Self.rows(bytes, atLeast: nil, edges: nil))
        let offered = !["cmyk-adobe", "exif-orientation-6"].contains(name)
        #expect((request.rows != nil) == offered)
    }

    @Test("The coefficients' edges are the decoded pixels' column sums, within the decoder's rounding",
          arguments: [1, 3])
    func matchPixels(channels: Int) throws {
        let width = 333, height = 421, depth = 13  // edge columns across two blocks, a partial last block
        let bytes = try JPEGEncoder.encode(Self.page(width: width, height: height, channels: channels), quality: 95)
        let request = PageDecoder.EdgeRequest(depth: { _ in depth })
        let image = try Self.rows(bytes, atLeast: nil, edges: request)
        let edges = try #require(request.rows)
        var worst = 0, total = 0
        for y in 0..<height {
            for (side, sums) in [(0, edges.left), (width - depth, edges.right)] {
                let difference = abs(Int(sums[y]) - Self.luma(image, row: y, columns: side..<(side + depth)))
                worst = max(worst, difference)
                total += difference
            }
        }
        // Half a level a sample at worst, an eighth on average (measured: 0.30 and 0.07 gray, 0.32 and 0.08 colour):
        // libjpeg's integer IDCT, its clamping and, in colour, the chroma's rounding against the exact transform.
        #expect(worst <= depth * 128, "worst \(worst)")
        #expect(total / (2 * height) <= depth * 32, "mean \(total / (2 * height))")
        guard channels == 3 else {
            #expect(edges.chroma.isEmpty)
            return
        }
        // Cb and Cr, subsampled 2×2 here and over an odd number of columns: each
        // sample counted for the columns it stands for. The decoder interpolates
        // them between samples, the coefficients hold them flat over each.
        #expect(edges.chroma.count == 4 && edges.chroma.allSatisfy { $0.count == height })
        var chromaWorst = 0, chromaTotal = 0
        for y in 0..<height {
            for (plane, weights) in [(0, (-43, -85, 128)), (2, (128, -107, -21))] {
                for (side, first) in [(0, 0), (1, width - depth)] {
                    var expected = 0
                    for x in first..<(first + depth) {
                        let i = (y * width + x) * 3
                        expected += weights.0 * Int(image.pixels[i]) + weights.1 * Int(image.pixels[i + 1])
                            + weights.2 * Int(image.pixels[i + 2]) + 128 * 256
                    }
                    let difference = abs(Int(edges.chroma[plane + side][y]) - expected)
                    chromaWorst = max(chromaWorst, difference)
                    chromaTotal += difference
                }
            }
        }
        // Measured: 2.55 levels a sample at worst, 0.39 on average, on this page whose colour changes every few pixels.
        #expect(chromaWorst <= depth * 4 * 256, "worst \(chromaWorst)")
        #expect(chromaTotal / (4 * height) <= depth * 256, "mean \(chromaTotal / (4 * height))")
    }

    @Test("The coefficients' strips are the decoded pixels' luma column by column, within the decoder's rounding; a narrow page has none",
          arguments: [1, 3])
    func stripsMatchPixels(channels: Int) throws {
        let width = 333, height = 421, depth = 24
        let bytes = try JPEGEncoder.encode(Self.page(width: width, height: height, channels: channels), quality: 95)
        let request = PageDecoder.EdgeRequest(depth: { _ in 3 }, stripDepth: { _ in depth })
        let image = try Self.rows(bytes, atLeast: nil, edges: request)
        let strips = try #require(request.rows?.strips)
        try #require(strips.count == 2 && strips.allSatisfy { $0.count == height * depth })
        var worst = 0, total = 0
        for y in 0..<height {
            for k in 0..<depth {
                for (side, x) in [(0, k), (1, width - 1 - k)] {
                    let difference = abs(Int(strips[side][y * depth + k]) - Self.luma(image, row: y, columns: x..<(x + 1)))
                    worst = max(worst, difference)
                    total += difference
                }
            }
        }
        // One sample is not a sum: a decoded pixel is rounded to a whole level (a quarter of a level on
        // average), and in colour its luma is made again from rounded R, G and B. Measured: 0.59 and
        // 0.25 levels gray, 1.01 and 0.29 colour.
        #expect(worst <= (channels == 1 ? 192 : 384), "worst \(worst)")
        #expect(total / (2 * height * depth) <= (channels == 1 ? 80 : 96), "mean \(total / (2 * height * depth))")

        let narrow = try JPEGEncoder.encode(Self.page(width: 2 * depth - 1, height: 300, channels: channels), quality: 90)
        let narrowRequest = PageDecoder.EdgeRequest(depth: { _ in 3 }, stripDepth: { _ in depth })
        _ = try Self.rows(narrow, atLeast: nil, edges: narrowRequest)
        #expect(narrowRequest.rows?.left.count == 300 && narrowRequest.rows?.strips == [])
    }

    /// Black lines on white paper: the inverse DCT rings past white and past
    /// black next to each line, and the decoder clamps every sample it
    /// gives. The coefficients' sums were those of the unclamped samples,
    /// 2.75 levels a sample past white at worst at quality 75 here; held to
    /// what a sum of samples can be, they are within the decoder's rounding
    /// again on white paper, as a row path (a PNG of the same pixels) sees it.
    @Test("Lines on white paper, where the inverse DCT rings past white: the coefficients' edges are the decoded pixels' column sums",
          arguments: [1, 3])
    func ringingPastWhite(channels: Int) throws {
        let width = 160, height = 240, depth = 6
        var image = PixelBuffer(width: width, height: height, channels: channels)
        for y in 0..<height {
            for x in 0..<width {
                // Paper, crossed by black lines two pixels wide every 11 rows and at a slant.
                let ink = y % 11 < 2 || (x + 2 * y) % 37 < 2
                for c in 0..<channels { image.pixels[(y * width + x) * channels + c] = ink ? 0 : 255 }
            }
        }
        let bytes = try JPEGEncoder.encode(image, quality: 75)
        let request = PageDecoder.EdgeRequest(depth: { _ in depth })
        let decoded = try Self.rows(bytes, atLeast: nil, edges: request)
        let edges = try #require(request.rows)
        var worst = 0
        for y in 0..<height {
            for (first, sums) in [(0, edges.left), (width - depth, edges.right)] {
                let expected = Self.luma(decoded, row: y, columns: first..<(first + depth))
                // Rows of paper alone, the decoded samples all white: the sum is the white one.
                if expected == depth * 255 * 256 { worst = max(worst, abs(Int(sums[y]) - expected)) }
            }
        }
        #expect(worst <= depth * 128, "worst \(worst) on rows of white paper")
    }

    /// A JPEG's coefficients times its quantization can stand for levels far
    /// past any a sample holds (16-bit tables of 65,535 over a page of noise
    /// encoded at quality 100): libjpeg clamps each decoded sample, and the
    /// edges read from the coefficients wrapped past Int32 instead, which
    /// trapped pairing's arithmetic (`plan --pairing auto` ended with exit 132).
    @Test("Coefficients far past any level: the edges and strips hold only levels the page's samples can",
          arguments: [1, 3])
    func extremeCoefficients(channels: Int) throws {
        let width = 96, height = 200, depth = 5
        let bytes = try JPEGEncoder.farPastAnyLevel(width: width, height: height, channels: channels, seed: 1)
        let request = PageDecoder.EdgeRequest(depth: { _ in depth }, stripDepth: { _ in 24 })
        let image = try Self.rows(bytes, atLeast: nil, edges: request)
        #expect(image.width == width && image.height == height)
        let edges = try #require(request.rows)
        let sums = Int32(0)...Int32(depth * 255 * 256)
        #expect(edges.left.count == height && (edges.left + edges.right).allSatisfy(sums.contains))
        #expect(edges.chroma.count == (channels == 3 ? 4 : 0) && edges.chroma.joined().allSatisfy(sums.contains))
        #expect(edges.strips.count == 2 && edges.strips.joined().allSatisfy((Int32(0)...Int32(255 * 256)).contains))
        // Such a file still has edges at both extremes, as its decoded samples do.
        #expect(edges.strips.joined().contains(0) && edges.strips.joined().contains(255 * 256))
    }

    @Test("Damaged JPEGs: reading the edges never crashes or hangs, and fails or succeeds with the plain decode, with the same rows",
          arguments: ["baseline", "progressive", "gray", "made-progressive"])
    func damaged(name: String) throws {
        let original = name == "made-progressive"
            ? try JPEGEncoder.encode(Self.page(width: 90, height: 300, channels: 3), quality: 80, progressive: true)
            : try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("jpeg/\(name).jpg"))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var failures = 0
        for round in 0..<300 {
            var bytes = original
            if round % 5 == 4 {
                bytes.removeLast(next(bytes.count / 2) + 1)
            } else {
                for _ in 0...next(4) { bytes[next(bytes.count)] = UInt8(next(256)) }
            }
            let plain = Result { try Self.rows(bytes, atLeast: nil, edges: nil) }
            let request = PageDecoder.EdgeRequest(depth: { _ in 3 }, stripDepth: { _ in 24 })
            let shared = Result { try Self.rows(bytes, atLeast: nil, edges: request) }
            switch (plain, shared) {
            case (.success(let a), .success(let b)): #expect(a == b, "round \(round)")
            case (.failure, .failure): failures += 1
            default: Issue.record("round \(round): the plain decode \(plain) and the one reading edges \(shared) disagree")
            }
        }
        #expect(failures > 0)
    }
}
