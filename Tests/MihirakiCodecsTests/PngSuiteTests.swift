import Foundation
import MihirakiTestSupport
import Testing
@testable import MihirakiCodecs
import MihirakiRaster

/// PngSuite files with expected RGBA values (see scripts/import-pngsuite.py).
let pngSuiteValid: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.pngSuite.path)) ?? []
    return names.filter { $0.hasSuffix(".png") && !$0.hasPrefix("x") }.sorted()
}()

let pngSuiteCorrupt: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.pngSuite.path)) ?? []
    return names.filter { $0.hasSuffix(".png") && $0.hasPrefix("x") }.sorted()
}()

@Suite("PngSuite conformance", .tags(.codecs), .timeLimit(.minutes(10)))
struct PngSuiteTests {
    @Test("The fixtures are present")
    func present() {
        #expect(pngSuiteValid.count == 161)
        #expect(pngSuiteCorrupt.count == 14)
    }

    @Test("Every valid image decodes to the expected values", arguments: pngSuiteValid)
    func decodes(name: String) throws {
        let base = Fixtures.pngSuite.appendingPathComponent(String(name.dropLast(4)))
        let image = try PageDecoder.decode(try Fixtures.bytes(Fixtures.pngSuite.appendingPathComponent(name)))
        var rgba: [Int] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image.rgba(x: x, y: y)
                rgba += [Int(c.red), Int(c.green), Int(c.blue), Int(c.alpha)]
            }
        }
        let exact = base.appendingPathExtension("rgba"), wide = base.appendingPathExtension("rgba16")
        if FileManager.default.fileExists(atPath: exact.path) {
            // 8-bit sources: exactly the stored values.
            let expected = try Fixtures.bytes(exact).map(Int.init)
            #expect(rgba == expected)
        } else {
            // 16-bit sources: reduced with rounding, within one level of the 16-bit oracle.
            let raw = try Fixtures.bytes(wide)
            let expected = stride(from: 0, to: raw.count, by: 2).map { Int(raw[$0]) | Int(raw[$0 + 1]) << 8 }
            #expect(rgba.count == expected.count)
            let worst = zip(rgba, expected).map { abs($0 - ($1 * 255 + 32767) / 65535) }.max() ?? 0
            #expect(worst <= 1)
        }
    }

    /// Every corrupt file is refused with a reason, never a crash. Note: the
    /// expected-values set includes xhdn0g08 (an IHDR with a wrong CRC) as if it
    /// decoded; a critical chunk with a bad CRC is corrupt by the PNG spec, so
    /// Mihiraki refuses it like libpng does, and that oracle entry is not used.
    @Test("Every corrupt image is refused with a reason", arguments: pngSuiteCorrupt)
    func refuses(name: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.pngSuite.appendingPathComponent(name))
        #expect {
            _ = try PageDecoder.decode(bytes)
        } throws: { error in
            guard let error = error as? CodecError else { return false }
            return !error.message.isEmpty && error.message.count < 200 && !error.message.contains("\n")
        }
    }
}
