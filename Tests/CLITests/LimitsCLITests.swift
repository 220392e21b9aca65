import Foundation
import MihirakiTestSupport
import Testing

@Suite("Command line: limits and version", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct LimitsCLITests {
    let sample = Fixtures.sampleBook.path

    /// A canvas over --max-pixels used to be allocated anyway: 60000×60000 RGB
    /// is 10.8 GB, and the process died with a fatal error. It is a usage error.
    @Test("A canvas over --max-pixels is a usage error: exit 2, one line, nothing written",
          arguments: [["--size", "60000x60000"], ["--size", "2048x1536", "--max-pixels", "3000000"],
                      ["--size", "x40000"]])
    func canvasOverLimit(flags: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path + "/out"
        let run = try mihiraki(["render", sample, "-o", out] + flags)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("mihiraki: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("--max-pixels"))
        #expect(!FileManager.default.fileExists(atPath: out + "/sample-book"))
        let plan = try mihiraki(["plan", sample] + flags)
        #expect(plan.status == 2 && plan.stderr.contains("--max-pixels"), "\(plan.stderr)")
    }

    /// Found reviewing the server's query parameters: a derived canvas side
    /// was converted from Double to Int unchecked, so an absurd gap or size
    /// stopped the process with a fatal error (exit 132) — and a query
    /// string could do the same to `mihiraki serve`.
    @Test("An absurd gap or size beside a derived canvas side is a usage error, not a crash", arguments: [
        ["--size", "x300", "--gap", "1e300"], ["--size", "x300", "--gap", "nan"], ["--size", "300x", "--gap", "-1e300"],
        ["--size", "x9223372036854775807"], ["--size", "x300", "--gap", "inf"],
    ])
    func absurdDerivedCanvas(flags: [String]) throws {
        let run = try mihiraki(["plan", sample] + flags)
        #expect(run.status == 2, "\(flags): exit \(run.status)")
        #expect(run.stderr.hasPrefix("mihiraki: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr.prefix(300))")
    }

    @Test("A contact sheet over --max-pixels is refused before any spread is drawn")
    func contactSheetOverLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for i in 1...8 { try folder.write("book/p\(i).png", try Fixtures.solidPNG(width: 20, height: 30, [90])) }
        // Five 200×150 spreads fit 30000 pixels; their sheet (two rows of 320-pixel tiles) does not.
        let run = try mihiraki(["render", folder.path + "/book", "-o", folder.path + "/out", "--size", "200x150",
                                "--max-pixels", "30000", "--contact-sheet"])
        #expect(run.status == 2 && run.stderr.contains("contact sheet"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/book/spread-001.png"))
    }

    @Test("--version prints the version")
    func version() throws {
        let run = try mihiraki(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(run.stdout)")
    }
}
