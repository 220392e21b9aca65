import Foundation
import MihirakiTestSupport
import Testing

@Suite("Command line: output formats in incremental runs, goldens and without SIMD")
struct FormatGoldenCLITests {
    let sample = Fixtures.sampleBook.path

    @Test("An incremental run in another format replaces the files: no spread of the old format is left")
    func incrementalFormatSwitch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path + "/out"
        for format in ["png", "webp"] {
            let run = try mihiraki(["render", sample, "-o", out, "--format", format, "--size", "x200", "--incremental",
                                    "--contact-sheet", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/sample-book").sorted()
        #expect(!names.contains { $0.hasSuffix(".png") }, "\(names)")
        #expect(names.filter { $0.hasSuffix(".webp") }.count == 9, "\(names)")
    }

    @Test("render --check and compare read goldens in every lossy format: unchanged matches, a changed page does not",
          arguments: ["jpeg", "webp", "avif"])
    func checkLossyGoldens(format: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: sample, toPath: folder.path + "/book")
        let flags = ["--format", format, "--size", "x300", "--quiet"]
        #expect(try mihiraki(["render", folder.path + "/book", "-o", folder.path + "/golden"] + flags).status == 0)
        let same = try mihiraki(["render", folder.path + "/book", "--check", folder.path + "/golden"] + flags)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        // Page 3's picture replaced by page 4's (same name, same size): spread [2|3]'s pixels change, nothing else.
        try FileManager.default.removeItem(atPath: folder.path + "/book/page3.jpg")
        try FileManager.default.copyItem(atPath: sample + "/page4.jpg", toPath: folder.path + "/book/page3.jpg")
        let changed = try mihiraki(["render", folder.path + "/book", "--check", folder.path + "/golden"] + flags)
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
        let ext = format == "jpeg" ? "jpg" : format
        let lines = changed.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("book/spread-002.\(ext): DIFF") }, "\(changed.stdout)")
        #expect(lines.filter { $0.hasSuffix(": ok") }.count == 7, "\(changed.stdout)")
        #expect(try mihiraki(["render", folder.path + "/book", "-o", folder.path + "/now"] + flags).status == 0)
        let compare = try mihiraki(["compare", folder.path + "/golden", folder.path + "/now"])
        #expect(compare.status == 1 && compare.stdout.contains("spread-002.\(ext)"), "\(compare.stdout)\(compare.stderr)")
    }

    /// libjpeg-turbo picks SIMD code by CPU; JSIMD_FORCENONE makes it use its
    /// plain C paths, as a CPU without SSE2/AVX2 would. Shrink-on-load (the
    /// scaled IDCTs and upsampling) must give the same bytes either way.
    @Test("Thumbnails decoded at reduced scale are the same bytes with and without libjpeg-turbo's SIMD code")
    func sameBytesWithoutSIMD() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (name, environment) in [("simd", [String: String]()), ("plain", ["JSIMD_FORCENONE": "1"])] {
            let run = try mihiraki(["render", sample, "-o", folder.path + "/" + name, "--size", "x200", "--quiet"],
                                   environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/simd/sample-book").sorted()
        #expect(names.count == 9)
        for name in names {
            let a = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/simd/sample-book/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/plain/sample-book/" + name))
            #expect(a == b, "\(name)")
        }
    }
}
