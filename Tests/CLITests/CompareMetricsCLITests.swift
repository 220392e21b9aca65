import Foundation
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing

/// `compare --metric` (SPEC §5b): what each of pixelmatch, ciede2000 and
/// ssim lets pass and what it catches, from the command line.
@Suite("Command line: compare's metrics", .tags(.process), .timeLimit(.minutes(10)))
struct CompareMetricsCLITests {
    /// A page with every level of a smooth ramp and hard edges, none near black.
    static func page(tone: Int = 0, patch: Bool = false) throws -> [UInt8] {
        var image = PixelBuffer(width: 240, height: 180, channels: 3)
        for y in 0..<180 {
            for x in 0..<240 {
                let i = (y * 240 + x) * 3
                let edge = (x / 30 + y / 30) % 2 == 0 ? 60 : 0
                let base = [60 + x / 2 + edge / 2, 90 + y / 2, 150 - x / 4 + edge]
                for k in 0..<3 { image.pixels[i + k] = UInt8(clamping: base[k] + tone) }
                if patch && (100..<140).contains(x) && (70..<110).contains(y) {
                    // ΔE00 ≥ 5 from every colour underneath: the green channel lifted by 40.
                    image.pixels[i + 1] = UInt8(clamping: base[1] + 40)
                }
            }
        }
        return try PNGEncoder.encode(image)
    }

    @Test("A +2-level tone shift passes every metric at its default; a recoloured 40×40 patch fails every one")
    func toneAndPatch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("page.png", try Self.page())
        try folder.write("tone.png", try Self.page(tone: 2))
        try folder.write("patch.png", try Self.page(patch: true))
        for metric in ["pixelmatch", "ciede2000", "ssim"] {
            let tone = try mihiraki(["compare", folder.path + "/page.png", folder.path + "/tone.png", "--metric", metric])
            #expect(tone.status == 0, "\(metric): \(tone.stdout)\(tone.stderr)")
            let patch = try mihiraki(["compare", folder.path + "/page.png", folder.path + "/patch.png", "--metric", metric, "--json"])
            #expect(patch.status == 1, "\(metric): \(patch.stdout)\(patch.stderr)")
            let files = try #require(try JSONSerialization.jsonObject(with: Data(patch.stdout.utf8)) as? [String: Any])["files"] as? [[String: Any]]
            let differing = try #require(files?.first?["differingPixels"] as? Int, "\(patch.stdout)")
            // Every pixel of the patch; SSIM, whose luminance term forgives a
            // flat lift of 23 levels of luma at 130, the patch's outline (a ring
            // about 5 pixels wide, which still bounds the whole patch).
            #expect((metric == "ssim" ? 500...1600 : 1600...1600).contains(differing), "\(metric): \(differing) pixels")
        }
        // A tone shift of 12 levels is past a just-noticeable difference almost everywhere.
        try folder.write("tone12.png", try Self.page(tone: 12))
        let strong = try mihiraki(["compare", folder.path + "/page.png", folder.path + "/tone12.png", "--metric", "ciede2000"])
        #expect(strong.status == 1, "\(strong.stdout)")
    }

    @Test("A threshold off the metric's scale and an unknown metric are usage errors naming the option")
    func badThresholds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("page.png", try Self.page())
        let page = folder.path + "/page.png"
        let ssim = try mihiraki(["compare", page, page, "--metric", "ssim", "--threshold", "2"])
        #expect(ssim.status == 2 && ssim.stderr.contains("--threshold for ssim must be from -1 to 1"), "\(ssim.stderr)")
        let ciede = try mihiraki(["compare", page, page, "--metric", "ciede2000", "--threshold", "3"])
        #expect(ciede.status == 0, "\(ciede.stderr)")
        let unknown = try mihiraki(["compare", page, page, "--metric", "yiq"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--metric"), "\(unknown.stderr)")
    }
}
