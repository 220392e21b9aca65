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

    /// A legal canvas took 2.4 GiB to draw and write as AVIF (20000×10000,
    /// exactly --max-pixels), 1.2 GiB as PNG. Each format's measured cost per
    /// pixel bounds the canvas to what one render may use (SPEC §6): past
    /// it, one line before anything is read. scripts/bench-memory measures
    /// the peak at each format's largest canvas.
    @Test("A canvas whose one render would take more than 1 GiB in its format is a usage error naming the largest it takes",
          arguments: [(["--format", "avif"], "AVIF"), (["--format", "png"], "PNG"), (["--format", "jpeg"], "JPEG"),
                      (["--format", "png", "--background", "transparent", "--size", "12000x10000"], "PNG with a see-through background")])
    func canvasOverMemory(flags: [String], kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path + "/out"
        let size = flags.contains("--size") ? [] : ["--size", "20000x10000"]
        let run = try mihiraki(["render", sample, "-o", out] + size + flags)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("too large for one \(kind) image within 1 GiB"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Under the limit, the same format plans.
        let under = try mihiraki(["plan", sample, "--size", "6000x4000"] + flags.filter { $0 != "--size" && $0 != "12000x10000" })
        #expect(under.status == 0, "\(under.stderr)")
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

    /// A page's header was read from a ZIP entry inflated whole, and a
    /// header not in its first 256 KB from the whole file: a CBZ of 1 MB
    /// whose entries each inflate to 512 MiB made a plan from page sizes
    /// (which `serve` makes in its own process) hold a GiB and more.
    @Test("A ZIP whose entries inflate to 512 MiB each is planned within 1 GiB of address space: the bad page named, exit 1")
    func inflatingEntries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/bomb.cbz"
        let script = #"""
            import struct, sys, zlib
            def deflated(head, mib):
                # After a full flush each MiB of zeros compresses to the same bytes.
                c = zlib.compressobj(9, zlib.DEFLATED, -15)
                start = c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)
                block = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
                assert block == c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
                crc = zlib.crc32(head)
                for _ in range(mib):
                    crc = zlib.crc32(bytes(1 << 20), crc)
                return start + block * mib + c.flush(), crc, len(head) + (mib << 20)
            page = open(sys.argv[2], "rb").read()
            entries = [("p1.png", 0, page, zlib.crc32(page), len(page))]
            data, crc, size = deflated(b"\x89PNG\r\n\x1a\n", 512)
            entries += [(f"p{n}.png", 8, data, crc, size) for n in (2, 3, 4)]
            out, directory = bytearray(), bytearray()
            for name, method, data, crc, size in entries:
                fields = (20, 0, method, 0, 0x21, crc, len(data), size, len(name), 0)
                directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, *fields, 0, 0, 0, 0, len(out)) + name.encode()
                out += struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields) + name.encode() + data
            end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(directory), len(out), 0)
            open(sys.argv[1], "wb").write(out + directory + end)
            """#
        let made = try runTool("/usr/bin/python3", ["-c", script, book, Fixtures.sampleBook.path + "/page2.png"])
        try #require(made.status == 0, "\(made.stderr)")
        let run = try runTool("/usr/bin/prlimit", ["--as=\(1 << 30)", try mihirakiPath(), "plan", book, "--jobs", "2"])
        #expect(run.status == 1, "exit \(run.status): \(run.stderr)")
        #expect(run.stderr.hasPrefix("mihiraki: \(book):p2.png: ") && run.stderr.hasSuffix(" (in its first 64 MiB, as far as a header is looked for)\n"),
                "\(run.stderr)")
    }

    /// Read whole, a page of many GiB (here a sparse file behind a real
    /// PNG header) ended the child that drew it, failing to allocate it:
    /// `internal error while rendering spread 2 (please report)`.
    @Test("A file over 1 GiB is refused by its size, named in one line: a folder's page in render and automatic pairing, an image to compare")
    func hugePageFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/book"
        try FileManager.default.createDirectory(atPath: book, withIntermediateDirectories: true)
        for name in ["1.jpg", "2.png", "3.jpg"] {
            try FileManager.default.copyItem(atPath: sample + "/page" + name, toPath: book + "/p" + name)
        }
        try Fixtures.growSparse(book + "/p2.png")
        #expect(try mihiraki(["plan", book]).status == 0, "the header is read from the file's start alone")
        for arguments in [["render", book, "-o", folder.path + "/out", "--size", "x300"], ["plan", book, "--pairing", "auto"]] {
            let run = try mihiraki(arguments)
            #expect(run.status == 1, "\(arguments): exit \(run.status): \(run.stderr)")
            #expect(run.stderr.hasPrefix("mihiraki: \(book)/p2.png: file is larger than 1 GiB\n"), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("internal error"), "\(run.stderr)")
        }
        // compare read both images whole in its own process, and ended with a fatal error.
        let compared = try mihiraki(["compare", sample + "/page2.png", book + "/p2.png"])
        #expect(compared.status == 2, "exit \(compared.status): \(compared.stderr)")
        #expect(compared.stderr == "mihiraki: \(book)/p2.png: file is larger than 1 GiB\n", "\(compared.stderr)")
    }

    @Test("--version prints the version")
    func version() throws {
        let run = try mihiraki(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(run.stdout)")
    }
}
