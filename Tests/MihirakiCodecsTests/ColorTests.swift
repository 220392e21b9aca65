import Foundation
import MihirakiRaster
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs

@Suite("Embedded colour profiles", .tags(.codecs), .timeLimit(.minutes(10)))
struct ColorTests {
    /// Every sample of a page decoded with `withRows`, one row at a time.
    func rowByRow(_ bytes: [UInt8]) throws -> [UInt8] {
        var rows: [UInt8] = []
        try PageDecoder.withRows(bytes) { width, height, channels, next in
            var row = [UInt8](repeating: 0, count: width * channels + 16)
            for _ in 0..<height {
                try row.withUnsafeMutableBufferPointer { try next($0.baseAddress!) }
                rows += row.prefix(width * channels)
            }
        }
        return rows
    }

    /// The largest difference between two sample arrays.
    func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// icc.* store the source in a wide-gamut (Adobe RGB primaries) profile of
    /// our own; the reference is lcms2's conversion through Pillow's ImageCms.
    @Test("Pages with a profile come out in sRGB as lcms2 converts them; --color-manage off keeps the stored values",
          arguments: ["icc.png", "icc.jpg", "icc.webp", "icc.avif", "icc.jxl"])
    func managed(name: String) throws {
        let bytes = try Formats.bytes(name)
        let managed = try PageDecoder.decode(bytes).straightRGBA.pixels
        let stored = try PageDecoder.decode(bytes, colorManage: false).straightRGBA.pixels
        let srgb = try Formats.reference(name + ".srgb"), original = try Formats.reference(name)
        #expect(maxDifference(stored, managed) > 60, "\(name): the profile changed nothing")
        #expect(maxDifference(managed, srgb) <= 2 && psnr(managed, srgb) >= 50,
                "\(name): \(maxDifference(managed, srgb)) max, \(psnr(managed, srgb)) dB from lcms2's sRGB")
        #expect(psnr(stored, original) >= 45, "\(name): stored values \(psnr(stored, original)) dB")
        #expect(try rowByRow(bytes) == (try PageDecoder.decode(bytes)).pixels, "row by row gives the same as whole")
    }

    /// icc-cmyk.jpg: Adobe-inverted CMYK with a CMYK profile of our own
    /// (cmyk-test.icc, an ink model unlike the naive formula); the reference
    /// is lcms2's conversion through Pillow's ImageCms.
    @Test("A CMYK JPEG with a profile comes out in sRGB through it; --color-manage off uses the naive formula")
    func cmykThroughProfile() throws {
        let bytes = try Formats.bytes("icc-cmyk.jpg")
        let managed = try PageDecoder.decode(bytes)
        #expect(managed.channels == 3)
        let srgb = try Formats.reference("icc-cmyk.jpg.srgb")
        let fidelity = psnr(managed.straightRGBA.pixels, srgb)
        #expect(maxDifference(managed.straightRGBA.pixels, srgb) <= 3 && fidelity >= 45,
                "\(maxDifference(managed.straightRGBA.pixels, srgb)) max, \(fidelity) dB from lcms2's sRGB")
        let naive = try PageDecoder.decode(bytes, colorManage: false)
        #expect(maxDifference(naive.straightRGBA.pixels, srgb) > 20, "the profile makes a difference")
        #expect(try rowByRow(bytes) == managed.pixels, "row by row gives the same as whole")
    }

    @Test("One transform per profile, shared; a profile that calls itself sRGB needs none")
    func cache() throws {
        let profile = try Formats.bytes("wide-gamut.icc")
        let first = ColorProfiles.transform(for: profile, channels: 3)
        #expect(first != nil && first == ColorProfiles.transform(for: profile, channels: 3))
        #expect(ColorProfiles.transform(for: profile, channels: 4) != first)
        // The same profile, described as sRGB.
        var srgb = profile
        let name = Array("Mihiraki".utf8), at = try #require(srgb.firstRange(of: name))
        srgb.replaceSubrange(at, with: Array("sRGB IEC".utf8))
        #expect(ColorProfiles.transform(for: srgb, channels: 3) == nil)
        // A profile for other pixels (RGB on gray), or garbage: the stored values are used.
        #expect(ColorProfiles.transform(for: profile, channels: 1) == nil)
        #expect(ColorProfiles.transform(for: [1, 2, 3], channels: 3) == nil)
    }
}
