import Foundation
import MihirakiTestSupport
import MihirakiCodecs
import MihirakiRaster
import Testing

@Suite("Command line", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct CLITests {
    let sample = Fixtures.sampleBook.path

    static func plan(_ arguments: [String]) throws -> String { try planOutput(arguments) }

    @Test("plan prints one line per spread")
    func plan() throws {
        #expect(try Self.plan([sample]) == "[x|1]\n[2|3]\n[4|5]\n[6|x]\n[7W]\n[8|9]\n[10|11]\n[12|x]\n")
        #expect(try Self.plan([sample, "--direction", "rtl", "--strip"]) == "[x|12]\n[11|10]\n[9|8]\n[7W]\n[x|6]\n[5|4]\n[3|2]\n[1|x]\n")
        let single = try Self.plan([sample, "--layout", "single"])
        #expect(single.split(separator: "\n").count == 12 && !single.contains("x"))
        // The program prints exactly that.
        let run = try mihiraki(["plan", sample])
        let printed = try Self.plan([sample])
        #expect(run.status == 0 && run.stdout == printed && run.stderr.isEmpty)
    }

    @Test("plan --json prints the manifest")
    func planJSON() throws {
        let text = try Self.plan([sample, "--json", "--size", "1000x700", "--gap", "10"])
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(json?["book"] as? String == "sample-book")
        #expect((json?["canvas"] as? [String: Int]) == ["width": 1000, "height": 700])
        #expect((json?["spreads"] as? [Any])?.count == 8)
    }

    @Test("render writes spreads and a manifest that agrees with plan --json")
    func render() throws {
        let out = try TemporaryFolder()
        defer { out.remove() }
        let run = try mihiraki(["render", sample, "-o", out.path, "--size", "400x300", "--direction", "rtl", "--jobs", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path + "/sample-book").sorted()
        #expect(files == ["manifest.json"] + (1...8).map { "spread-00\($0).png" })
        let manifest = try String(contentsOfFile: out.path + "/sample-book/manifest.json", encoding: .utf8)
        let plan = try Self.plan([sample, "--json", "--size", "400x300", "--direction", "rtl"])
        // The same document, plus the input fingerprint only a render computes.
        let fingerprint = try #require(manifest.split(separator: "\n").first { $0.contains("\"fingerprint\"") })
        #expect(fingerprint.range(of: #"^  "fingerprint": "[0-9a-f]{16}",$"#, options: .regularExpression) != nil)
        #expect(manifest.replacingOccurrences(of: fingerprint + "\n", with: "") == plan)
        let png = try Data(contentsOf: URL(fileURLWithPath: out.path + "/sample-book/spread-001.png"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test("A bad book is one error line naming it; the good book is still written; exit 1")
    func badBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("broken/p1.png", Array("not really a png".utf8))
        try folder.write("good/p1.png", try Fixtures.solidPNG(width: 30, height: 40, [9]))
        let run = try mihiraki(["render", folder.path + "/broken", folder.path + "/good", "-o", folder.path + "/out",
                                "--size", "200x100", "--quiet"])
        #expect(run.status == 1)
        #expect(run.stderr == "mihiraki: \(folder.path)/broken/p1.png: not an image Mihiraki reads (\(ImageFormat.readableNames))\n")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/good/spread-001.png"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/good/manifest.json"))
    }

    @Test("Usage errors exit 2 with one line", arguments: [
        ["plan"],
        ["render", "x"],
        ["plan", ".", "--size", "big"],
        ["plan", ".", "--background", "nocolour"],
        ["plan", ".", "--layout", "triple"],
        ["plan", ".", "--page-aspect", "0x1"],
        ["plan", ".", "--solo", "0"],
        ["frobnicate"],
    ])
    func usage(arguments: [String]) throws {
        let run = try mihiraki(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("mihiraki: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    /// `--jobs -5` was "Missing value for '--jobs <jobs>'": the parser took
    /// the number for an option of its own. It is the option's value, and
    /// refused by name with the range the option takes.
    @Test("A negative number after an option is its value, refused with the option's range, not called missing", arguments: [
        (["render", "SAMPLE", "-o", "OUT", "--jobs", "-5"], "mihiraki: --jobs must be at least 1\n"),
        (["compare", "a.png", "b.png", "--threshold", "-1"], "mihiraki: --threshold for pixelmatch must be from 0 to 1\n"),
        (["compare", "a.png", "b.png", "--threshold", "-.5"], "mihiraki: --threshold for pixelmatch must be from 0 to 1\n"),
        (["serve", ".", "--port", "-1"], "mihiraki: --port must be between 0 and 65535\n"),
        (["render", "SAMPLE", "-o", "OUT", "--gap", "-1"], "mihiraki: bad value for --gap: -1 (a number of pixels, at least 0)\n"),
        // plan took any number of workers, render none below one.
        (["plan", "SAMPLE", "--jobs", "-2"], "mihiraki: --jobs must be at least 1\n"),
        (["plan", "SAMPLE", "--jobs", "0", "--pairing", "auto"], "mihiraki: --jobs must be at least 1\n"),
    ])
    func negativeValues(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try mihiraki(arguments.map { $0 == "SAMPLE" ? sample : $0 == "OUT" ? folder.path + "/out" : $0 })
        #expect(run.status == 2 && run.stderr == message, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    @Test("The output folder may not be inside a book")
    func outputInsideBook() throws {
        let run = try mihiraki(["render", sample, "-o", sample + "/out"])
        #expect(run.status == 2 && run.stderr.contains("inside the book"))
        #expect(!FileManager.default.fileExists(atPath: sample + "/out"))
    }

    @Test("--help exits 0")
    func help() throws {
        let run = try mihiraki(["render", "--help"])
        #expect(run.status == 0 && run.stdout.contains("--blank-before"))
    }
}

@Suite("Command line: libraries", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct LibraryCLITests {
    /// A library as users have it: an RTL manga CBZ, a plain folder, a broken archive.
    func makeLibrary() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let page = try Fixtures.solidPNG(width: 60, height: 90, [120])
        try folder.writeArchive("lib/manga.cbz", [("ComicInfo.xml", comicInfoXML(manga: "YesAndRightToLeft")),
                                                  ("001.png", page), ("002.png", page), ("003.png", page)], deflate: true)
        for i in 1...3 { try folder.write("lib/comic/p\(i).png", page) }
        try folder.write("lib/broken.cbz", Array("PK\u{3}\u{4}garbage".utf8))
        return folder
    }

    @Test("One command over a library: two books right (RTL respected), one clear error, exit 1")
    func wholeLibrary() throws {
        let folder = try makeLibrary()
        defer { folder.remove() }
        let lib = folder.path + "/lib/"
        let run = try mihiraki(["render", lib + "broken.cbz", lib + "comic", lib + "manga.cbz", "-o", folder.path + "/out",
                                "--size", "x200"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.first == "mihiraki: \(lib)broken.cbz: not a readable ZIP archive")
        #expect(lines.last?.hasPrefix("3 books, 4 spreads written to \(folder.path)/out, 1 failed") == true)
        let manifest = try String(contentsOfFile: folder.path + "/out/manga/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"direction\": \"rtl\"") && manifest.contains("\"book\": \"manga.cbz\""))
        #expect(manifest.contains("\"canvas\": { \"width\": 257, \"height\": 200 }"))
        let plan = try planOutput([lib + "manga.cbz", "--explain"])
        #expect(plan.hasSuffix("[1|x]\n[3|2]\n"))
        #expect(plan.contains("# direction rtl (ComicInfo.xml)"))
        let ltr = try planOutput([lib + "manga.cbz", "--direction", "ltr", "--explain"])
        #expect(ltr.contains("# direction ltr (flag)") && ltr.hasSuffix("[x|1]\n[2|3]\n"))
    }

    @Test("On a terminal a progress line is drawn; --quiet and pipes stay silent")
    func progress() throws {
        let folder = try makeLibrary()
        defer { folder.remove() }
        let lib = folder.path + "/lib/"
        // util-linux's script(1) gives the run a terminal.
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"))
        let binary = try mihirakiPath()
        let text = try runTool("/usr/bin/script",
                           ["-qec", "\(binary) render \(lib)comic -o \(folder.path)/tty --size x100", "/dev/null"]).stdout
        #expect(text.contains("spreads 2/2") && text.contains("spreads/s"))
        let piped = try mihiraki(["render", lib + "comic", "-o", folder.path + "/pipe", "--quiet"])
        #expect(piped.status == 0 && piped.stderr.isEmpty && piped.stdout.isEmpty)
    }
}

@Suite("Command line: safe output", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct SafeOutputCLITests {
    /// Every PNG under a final name decodes completely.
    func allComplete(_ folder: String) throws -> Int {
        // Killed before it created anything: nothing to check.
        guard FileManager.default.fileExists(atPath: folder) else { return 0 }
        var count = 0
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder) where name.hasSuffix(".png") {
            let last = (name as NSString).lastPathComponent
            if last.hasPrefix(".") { continue }
            _ = try PageDecoder.decode(try Fixtures.bytes(URL(fileURLWithPath: folder + "/" + name)))
            count += 1
        }
        return count
    }

    @Test("kill -9 mid-run leaves only complete PNGs under final names; a re-run finishes and cleans up")
    func killed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path + "/out"
        // Killed at three points of the run: before the first spread is
        // final, after one, after three (polled, not timed).
        for finished in [0, 1, 3] {
            try? FileManager.default.removeItem(atPath: out)
            let process = try startMihiraki(["render", Fixtures.sampleBook.path, "-o", out, "--jobs", "2", "--quiet",
                                             "--size", "3000x2000"])
            while process.isRunning && finalSpreads(out) < finished { usleep(2000) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            _ = try allComplete(out)
        }
        // What a killed writer leaves behind, and a user's own dot-file that must survive.
        try FileManager.default.createDirectory(atPath: out + "/sample-book", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: out + "/sample-book/.spread-003.png.4242.17.tmp", contents: Data([1, 2]))
        _ = FileManager.default.createFile(atPath: out + "/sample-book/.notes.tmp", contents: Data([3]))
        let rerun = try mihiraki(["render", Fixtures.sampleBook.path, "-o", out, "--quiet", "--size", "3000x2000"])
        #expect(rerun.status == 0)
        #expect(try allComplete(out) == 8)
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/sample-book")
        #expect(names.filter { $0.hasSuffix(".tmp") } == [".notes.tmp"], "\(names)")
    }

    @Test("A full disk (ulimit -f) is a clear error, exit 1, no partial file under a final name")
    func fileSizeLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path + "/out"
        let limited = try runTool("/bin/sh", ["-c", "ulimit -f 200; exec \"$0\" render \"$1\" -o \"$2\" --quiet",
                                          try mihirakiPath(), Fixtures.sampleBook.path, out])
        let text = limited.stderr
        #expect(limited.status == 1)
        #expect(text.contains("cannot write: File too large"), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("mihiraki: ") })
        _ = try allComplete(out)
        #expect(!FileManager.default.fileExists(atPath: out + "/sample-book/manifest.json"))
    }

    @Test("An output location that cannot be created is one error and exit 2", arguments: ["/proc/mihiraki-out", "FILE/out"])
    func unwritable(location: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("afile", [1])
        let target = location.replacingOccurrences(of: "FILE", with: file)
        let run = try mihiraki(["render", Fixtures.sampleBook.path, "-o", target])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("mihiraki: ")
                && (run.stderr.contains("cannot create folder") || run.stderr.contains("cannot be created")), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }
}

/// Spread files under their final names so far, anywhere under `folder`.
func finalSpreads(_ folder: String) -> Int {
    ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).filter {
        ($0 as NSString).lastPathComponent.hasPrefix("spread-")
    }.count
}
