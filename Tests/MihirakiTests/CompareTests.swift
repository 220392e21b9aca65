import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Deterministic pseudo-random bytes.
struct Noise {
    var state: UInt64
    mutating func next() -> UInt8 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
}

/// A picture with flat areas and anti-aliased edges: a filled disc and a
/// diagonal stroke, edges blended over one pixel, shifted by `dx`.
func shapes(width: Int = 64, height: Int = 48, dx: Double = 0, alpha: UInt8 = 255) -> PixelBuffer {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            let fx = Double(x) + 0.5 - dx, fy = Double(y) + 0.5
            let disc = max(0, min(1, 14 - ((fx - 24) * (fx - 24) + (fy - 24) * (fy - 24)).squareRoot() + 0.5))
            let stroke = max(0, min(1, 2.5 - abs(fx - fy * 0.8 - 30) + 0.5))
            let ink = max(disc, stroke)
            let r = UInt8((250 - 230 * ink).rounded()), g = UInt8((245 - 200 * disc).rounded())
            let b = UInt8((240 - 150 * stroke).rounded())
            pixels += [r, g, b, alpha]
        }
    }
    return PixelBuffer(width: width, height: height, channels: 4, pixels: pixels)
}

/// The pairs the comparison is checked on.
func comparisonPairs() -> [(String, PixelBuffer, PixelBuffer)] {
    var noise = Noise(state: 42)
    let base = shapes()
    var onePixel = base
    onePixel.pixels[(10 * 64 + 50) * 4] = 0
    var scattered = base
    for _ in 0..<80 {
        let i = Int(noise.next()) * 11 % (64 * 48)
        for k in 0..<3 { scattered.pixels[i * 4 + k] = scattered.pixels[i * 4 + k] &+ noise.next() / 4 }
    }
    var translucent = shapes(alpha: 180)
    for i in stride(from: 0, to: 64 * 48, by: 7) { translucent.pixels[i * 4 + 3] = noise.next() }
    return [
        ("identical", base, base),
        ("one pixel off", base, onePixel),
        ("shifted anti-aliased edges", base, shapes(dx: 1)),
        ("sub-pixel shift", base, shapes(dx: 0.4)),
        ("scattered small changes", base, scattered),
        ("translucent", shapes(alpha: 180), translucent),
    ]
}

/// pip's `pixelmatch` on raw RGBA files: the reference implementation.
func pixelmatchReference(_ a: PixelBuffer, _ b: PixelBuffer, threshold: Double, includeAA: Bool) throws -> Int {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let pathA = try folder.write("a.rgba", a.pixels), pathB = try folder.write("b.rgba", b.pixels)
    let script = """
    import sys
    from pixelmatch import pixelmatch
    a = open(sys.argv[1], 'rb').read(); b = open(sys.argv[2], 'rb').read()
    print(pixelmatch(a, b, int(sys.argv[3]), int(sys.argv[4]), threshold=float(sys.argv[5]), includeAA=sys.argv[6] == '1'))
    """
    let run = try runTool("/usr/bin/env", ["python3", "-c", script, pathA, pathB, String(a.width), String(a.height),
                                            String(threshold), includeAA ? "1" : "0"])
    guard run.status == 0, let count = Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw MihirakiError(.io, "pixelmatch reference failed (pip install pixelmatch): \(run.stderr)")
    }
    return count
}

@Suite("Comparison (pixelmatch semantics)", .tags(.library), .timeLimit(.minutes(10)))
struct CompareTests {
    @Test("Counts equal pip pixelmatch's on generated pairs", arguments: comparisonPairs().map(\.0))
    func matchesPixelmatch(name: String) throws {
        let (_, a, b) = comparisonPairs().first { $0.0 == name }!
        for threshold in [0.1, 0.02] {
            for includeAA in [false, true] {
                let ours = PixelMatch.compare(a, b, options: PixelMatch.Options(threshold: threshold, includeAntialiased: includeAA))
                let reference = try pixelmatchReference(a, b, threshold: threshold, includeAA: includeAA)
                #expect(ours.differing == reference, "threshold \(threshold), includeAA \(includeAA)")
            }
        }
    }

    @Test("The pairs exercise every path: identical, differing, and anti-aliasing forgiven")
    func pairsAreMeaningful() {
        let results = Dictionary(uniqueKeysWithValues: comparisonPairs().map { ($0.0, PixelMatch.compare($0.1, $0.2)) })
        #expect(results["identical"]?.differing == 0 && results["identical"]?.antialiased == 0)
        #expect(results["one pixel off"]?.differing == 1)
        #expect((results["shifted anti-aliased edges"]?.antialiased ?? 0) > 0)
        #expect((results["scattered small changes"]?.differing ?? 0) > 0)
    }

    @Test("The diff picture: expected faded to gray, differences red, anti-aliasing yellow")
    func diffPicture() throws {
        let a = shapes(), b = shapes(dx: 1)
        let result = PixelMatch.compare(a, b, makeDiff: true)
        let picture = try #require(result.diffImage)
        var red = 0, yellow = 0, gray = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let c = picture.rgba(x: x, y: y)
                if c == Color(red: 255, green: 0, blue: 0) { red += 1 }
                else if c == Color(red: 255, green: 255, blue: 0) { yellow += 1 }
                else if c.isGray { gray += 1 }
            }
        }
        #expect(red == result.differing && yellow == result.antialiased)
        #expect(red + yellow + gray == picture.width * picture.height)
    }

    @Test("Different sizes are a mismatch, not a crash; tolerances allow small differences")
    func sizesAndTolerance() {
        let a = shapes(), b = shapes(width: 60)
        let result = ImageComparator.compare(expected: a, actual: b, name: "x.png", options: ImageComparator.Options())
        #expect(result.status == .diff && result.line == "x.png: DIFF size 60×48, expected 64×48")
        var onePixel = a
        onePixel.pixels[0] = 0
        var options = ImageComparator.Options()
        #expect(ImageComparator.compare(expected: a, actual: onePixel, name: "y.png", options: options).line
                == "y.png: DIFF 1 px (0.03 %)")
        options.maxDiffPixels = 1
        #expect(ImageComparator.compare(expected: a, actual: onePixel, name: "y.png", options: options).line
                == "y.png: ok (1 px within tolerance)")
        options.maxDiffPixels = 0
        options.maxDiffRatio = 0.001
        #expect(ImageComparator.compare(expected: a, actual: onePixel, name: "y.png", options: options).status == .ok)
    }

    @Test("Gray, RGB and RGBA files with the same pixels compare equal")
    func channelLayouts() {
        let gray = Fixtures.solid(width: 4, height: 4, [77])
        let rgb = Fixtures.solid(width: 4, height: 4, [77, 77, 77])
        #expect(ImageComparator.compare(expected: gray, actual: rgb, name: "g", options: ImageComparator.Options()).status == .ok)
    }

    @Test("Folders: matched by relative path; missing and extra files reported")
    func folders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try PNGEncoder.encode(shapes())
        var changed = shapes()
        changed.pixels[400] = 0
        try folder.write("e/a.png", png); try folder.write("e/sub/b.png", png); try folder.write("e/gone.png", png)
        try folder.write("a/a.png", png); try folder.write("a/sub/b.png", try PNGEncoder.encode(changed))
        try folder.write("a/new.png", png); try folder.write("a/notes.txt", [1])
        var options = ImageComparator.Options()
        options.diffPath = folder.path + "/diffs"
        let results = try ImageComparator.compareFolders(expected: folder.path + "/e", actual: folder.path + "/a", options: options)
        #expect(results.map(\.line) == ["a.png: ok", "gone.png: missing", "new.png: extra", "sub/b.png: DIFF 1 px (0.03 %)"])
        #expect(FileManager.default.fileExists(atPath: folder.path + "/diffs/sub/b.png"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/diffs/a.png"))
        let json = ImageComparator.json(results)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(decoded?["ok"] as? Bool == false && (decoded?["files"] as? [Any])?.count == 4)
    }
}
