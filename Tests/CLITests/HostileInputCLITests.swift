import Foundation
import Mihiraki
import MihirakiTestSupport
import Testing

/// The faults a hostile user found: pages lost without a word, inputs
/// touched, errors in a library's words. Each ran against the release before
/// the fix and failed; each runs the real binary, as the user did.
@Suite("Command line: nothing lost without a word", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct HostileInputCLITests {
    static let lyingZIPs = Fixtures.testImages.appendingPathComponent("lying-zips").path

    @Test("A ZIP whose central directory lies fails its book in one line naming it: no page dropped, no manifest",
          arguments: ["offset-off-the-end", "count-says-2", "broken-signature", "name-length-400"])
    func lyingZIP(name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let archive = Self.lyingZIPs + "/\(name).cbz"
        let run = try mihiraki(["render", archive, Self.lyingZIPs + "/valid.cbz", "-o", folder.path, "--size", "200x150"])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("mihiraki: ") && !$0.contains("books,") }
        #expect(lines == ["mihiraki: \(archive): " + (lines.first?.split(separator: ": ", maxSplits: 2).last.map(String.init) ?? "")])
        #expect(lines.first?.contains("a damaged ZIP archive") == true, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/\(name)"), "nothing written for the lying archive")
        // The honest archive beside it is written whole.
        let valid = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/valid").sorted()
        #expect(valid == ["manifest.json", "spread-001.png", "spread-002.png", "spread-003.png"])
    }

    @Test("A book whose pages all fail is one line: the first page's reason and how many more spreads failed")
    func oneLinePerBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pdf = Fixtures.testImages.appendingPathComponent("pdf/messages/bad-pages.pdf").path
        let run = try mihiraki(["render", pdf, Fixtures.sampleBook.path, "-o", folder.path + "/out", "--size", "x100", "--quiet"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("mihiraki: \(pdf):page 1: poppler: Bad block header in flate stream") == true, "\(run.stderr)")
        // [x|1] [2|3] [4|x]: three spreads fail.
        #expect(lines.first?.hasSuffix(" (and 2 more spreads of this book failed)") == true, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/sample-book/manifest.json"))
    }

    /// Linux names are bytes. A page whose name is not UTF-8 failed its
    /// book; a book folder so named was "no such file or folder" (the
    /// arguments' bytes were replaced), and the server left it out of its
    /// list without a word. Paths are bytes end to end (PathBytes), and
    /// messages show such a name escaped.
    @Test("Names that are not UTF-8: the page is read, the book is planned and rendered by its exact bytes, messages show them escaped")
    func undecodableNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try Fixtures.solidPNG(width: 30, height: 40, [9])
        // book\xFF/p1.png and book\xFF/p2\xFF\xFE.png, as Python's os.fsencode would make them.
        let book = Array((folder.path + "/book").utf8) + [0xFF]
        func create(_ bytes: [UInt8], directory: Bool = false) {
            let path = bytes + [0]
            path.withUnsafeBufferPointer { raw in
                let name = UnsafeRawPointer(raw.baseAddress!).assumingMemoryBound(to: CChar.self)
                if directory { mkdir(name, 0o755) } else {
                    let fd = open(name, O_CREAT | O_WRONLY, 0o644)
                    _ = page.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                }
            }
        }
        create(book, directory: true)
        create(book + Array("/p1.png".utf8))
        create(book + Array("/p2".utf8) + [0xFF, 0xFE] + Array(".png".utf8))
        let shell = "/bin/sh"
        let plan = try runTool(shell, ["-c", "exec \"$0\" plan --json \"$(printf '%s/book\\377' \"$1\")\"", try mihirakiPath(), folder.path])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains(#""book": "book\\xFF""#) && plan.stdout.contains(#""source": "p2\\xFF\\xFE.png""#), "\(plan.stdout)")
        let render = try runTool(shell, ["-c", "exec \"$0\" render \"$(printf '%s/book\\377' \"$1\")\" -o \"$1/out\" --size x50 --quiet",
                                         try mihirakiPath(), folder.path])
        #expect(render.status == 0, "\(render.stderr)")
        let written = try FileSystem.list(folder.path + "/out")
        #expect(written.map { FileSystem.bytes(ofPath: $0) } == [Array("book".utf8) + [0xFF]], "\(written)")
        let missing = try runTool(shell, ["-c", "exec \"$0\" plan \"$(printf '%s/nope\\377' \"$1\")\"", try mihirakiPath(), folder.path])
        #expect(missing.status == 1 || missing.status == 2)
        #expect(missing.stderr == "mihiraki: \(folder.path)/nope\\xFF: no such file or folder\n", "\(missing.stderr)")
    }

    @Test("An output folder reached through a link into the book is refused, and nothing is created in the book")
    func outputThroughLinkIntoBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try Fixtures.solidPNG(width: 30, height: 40, [9]))
        try FileManager.default.createDirectory(atPath: folder.path + "/work", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/work/inbooklink", withDestinationPath: "../book")
        let run = try mihiraki(["render", folder.path + "/book", "-o", folder.path + "/work/inbooklink/out"])
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("inside the book"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/book") == ["p1.png"])
    }

    /// `-o /dev/null` was "/dev/null is a file".
    @Test("-o that is a link loop, a dangling link, a file, a named pipe or a device: one usage line saying which, exit 2, nothing created",
          arguments: ["loop", "dangling", "file", "under-file", "pipe", "device"])
    func unusableOutput(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("book/p1.png", try Fixtures.solidPNG(width: 30, height: 40, [9]))
        let files = FileManager.default
        var out = folder.path + "/out"
        switch kind {
        case "loop":
            try files.createSymbolicLink(atPath: folder.path + "/a", withDestinationPath: folder.path + "/b")
            try files.createSymbolicLink(atPath: folder.path + "/b", withDestinationPath: folder.path + "/a")
            out = folder.path + "/a"
        case "dangling":
            try files.createSymbolicLink(atPath: out, withDestinationPath: folder.path + "/nowhere")
        case "file":
            try folder.write("out", [1])
        case "pipe":
            #expect(mkfifo(out, 0o644) == 0)
        case "device":
            out = "/dev/null"
        default:
            try folder.write("out", [1])
            out += "/deeper"
        }
        let before = try files.subpathsOfDirectory(atPath: folder.path).sorted()
        let run = try mihiraki(["render", folder.path + "/book", "-o", out])
        #expect(run.status == 2)
        let what = ["loop": "is a loop of symbolic links", "dangling": "is a symbolic link to nothing", "pipe": "is a named pipe",
                    "device": "/dev/null is a device"][kind] ?? "/out is a file"
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("cannot be created: ")
                    && run.stderr.hasSuffix(what + "\n"), "\(run.stderr)")
        #expect(try files.subpathsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test("A missing book creates no output folder")
    func missingBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try mihiraki(["render", folder.path + "/nosuch", "-o", folder.path + "/out"])
        #expect(run.status == 1 && run.stderr.contains("no such file or folder"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    /// libjxl ends each line of its failure trace with an empty one, and
    /// dav1d (libavif's AV1 decoder) logs "Error parsing OBU data" to stderr:
    /// both reached the user until the filter knew them (found by
    /// scripts/signal-sweep over the fuzzers' corpora).
    @Test("A damaged JPEG XL or AVIF page is one line in Mihiraki's words, nothing from the library",
          arguments: ["jxl", "avif", "jxl-trace-with-empty-lines", "avif-dav1d-logs"])
    func oneLineForDamagedPages(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let format = kind.hasPrefix("jxl") ? "jxl" : "avif"
        switch kind {
        case "jxl":
            let whole = try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("formats/lossy.jxl"))
            try folder.write("book/p1.jxl", Array(whole.prefix(whole.count * 2 / 3)))
        case "avif":
            try folder.write("book/p1.avif", try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("fuzz-regressions/avif-reformat.avif")))
        default:
            try folder.write("book/p1.\(format)", try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("fuzz-regressions/\(kind).\(format)")))
        }
        let run = try mihiraki(["render", folder.path + "/book", "-o", folder.path + "/out", "--quiet"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && lines[0].hasPrefix("mihiraki: \(folder.path)/book/p1.\(format): "), "\(run.stderr)")
        if kind == "avif" { #expect(run.stderr.contains("AVIF image data is damaged"), "\(run.stderr)") }
    }

    @Test("A folder that stops taking writes stops its book after one line")
    func writeErrorOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try Fixtures.solidPNG(width: 300, height: 400, [9])
        for i in 1...40 { try folder.write("book/p\(i).png", page) }
        // Every spread's final name is taken by a folder with a file in it, so
        // every rename fails, as writes do on a full disk or a folder made
        // immutable (root ignores permissions; this refuses root too).
        for n in 1...21 { try folder.write("out/book/spread-\(String(format: "%03d", n)).png/x", [1]) }
        let run = try mihiraki(["render", folder.path + "/book", "-o", folder.path + "/out", "--quiet", "--jobs", "2",
                                "--size", "400x300"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(lines.count) lines: \(run.stderr.prefix(500))")
        #expect(lines.first?.contains("the rest of this book was not written") == true, "\(run.stderr)")
    }

    @Test("An unknown subcommand is named")
    func unknownSubcommand() throws {
        let run = try mihiraki(["rendr", "book", "-o", "x"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("rendr") && run.stderr.contains("render"), "\(run.stderr)")
    }
}
