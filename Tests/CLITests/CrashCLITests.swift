import Foundation
import MihirakiTestSupport
import Testing

/// No book, option or path ends the process with a signal, and a book that
/// still crashes the code drawing it costs that book only (SPEC §6).
@Suite("Command line: nothing crashes it", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct CrashCLITests {
    /// A colour page whose header cannot say it is colour (WebP, GIF, AVIF)
    /// begins a gray canvas that its decode widens to RGB; the blank beside
    /// it was then filled with one gray sample on a three-channel canvas and
    /// a precondition trapped (exit 132). Every position a blank partner
    /// comes from: the last page of an even LTR book, the cover of an RTL
    /// book, --solo, --back-cover alone.
    @Test("A colour WebP, GIF or AVIF page next to a blank renders, in every position a blank comes from",
          arguments: ["webp-lossy", "webp-lossless", "gif", "avif"])
    func colourPageBesideBlank(kind: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = """
        import sys
        from PIL import Image
        out, kind = sys.argv[1], sys.argv[2]
        ext = {"webp-lossy": "webp", "webp-lossless": "webp", "gif": "gif", "avif": "avif"}[kind]
        for i in range(1, 5):
            page = Image.new("RGB", (60, 90), (200, 40 * i, 30))
            extra = {"lossless": True} if kind == "webp-lossless" else {}
            page.save(f"{out}/p{i}.{ext}", **extra)
        """
        let pages = folder.path + "/book"
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        let made = try await onOwnThread { try runTool("/usr/bin/env", ["python3", "-c", script, pages, kind]) }
        #expect(made.status == 0, "\(made.stderr)")
        let cases: [[String]] = [[], ["--direction", "rtl"], ["--solo", "2"], ["--back-cover", "alone"], ["--cover", "paired", "--solo", "3"]]
        for (index, flags) in cases.enumerated() {
            let out = folder.path + "/out\(index)"
            let run = try await onOwnThread { try mihiraki(["render", pages, "-o", out, "--size", "x120", "--quiet"] + flags) }
            #expect(run.status == 0 && run.stderr.isEmpty, "\(flags): exit \(run.status) \(run.stderr.prefix(300))")
            let book = out + "/book"
            let spreads = try FileManager.default.contentsOfDirectory(atPath: book).filter { $0.hasPrefix("spread-") }.sorted()
            #expect(!spreads.isEmpty, "\(flags)")
            // Every spread holds a colour page, so every spread is RGB; the blank is paper white.
            let views = try await onOwnThread { try pillow(spreads.map { book + "/" + $0 }, x: 0, y: 0) }
            for (path, view) in views {
                #expect(view.mode == "RGB", "\(flags): \(path) is \(view.mode)")
            }
        }
    }

    /// JPEG pages whose quantization tables (16 bits, 65,535 in every place)
    /// make their coefficients stand for levels far past any a sample holds:
    /// the decoder clamps each sample, but pairing read the edges from the
    /// coefficients as they were, and `plan --pairing auto` ended with exit
    /// 132 (an overflow trapped) while `render` failed the book as an internal error.
    @Test("JPEG pages whose coefficients reach far past any level: planned and rendered with --pairing auto",
          arguments: [1, 3])
    func extremeCoefficients(channels: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pages = folder.path + "/book"
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        for page in 1...3 {
            let bytes = try JPEGEncoder.farPastAnyLevel(width: 120, height: 180, channels: channels,
                                                        seed: UInt64(10 * channels + page))
            try Data(bytes).write(to: URL(fileURLWithPath: "\(pages)/p\(page).jpg"))
        }
        let plan = try await onOwnThread { try mihiraki(["plan", pages, "--pairing", "auto", "--explain"]) }
        #expect(plan.status == 0 && plan.stderr.isEmpty, "exit \(plan.status) \(plan.stderr.prefix(300))")
        #expect(plan.stdout.contains("# pages 1+2:"), "\(plan.stdout.prefix(600))")
        let out = folder.path + "/out"
        let render = try await onOwnThread {
            try mihiraki(["render", pages, "-o", out, "--pairing", "auto", "--size", "x60", "--quiet"])
        }
        #expect(render.status == 0 && render.stderr.isEmpty, "exit \(render.status) \(render.stderr.prefix(300))")
        #expect(FileManager.default.fileExists(atPath: out + "/book/manifest.json"))
    }

    /// `-o q` (a relative path of one letter that does not exist yet) made
    /// Foundation's path code trap; so did `--check g --update`.
    @Test("A one-letter relative output folder that does not exist yet is created: -o q and --check g --update")
    func oneLetterOutput() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = Fixtures.sampleBook.path
        for (arguments, made) in [(["-o", "q"], "q"), (["--check", "g", "--update"], "g")] {
            let command = ["render", sample, "--size", "x60", "--quiet"] + arguments
            let run = try await onOwnThread { try runTool("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path, try mihirakiPath()] + command) }
            #expect(run.status == 0 && run.stderr.isEmpty, "\(arguments): exit \(run.status) \(run.stderr.prefix(300))")
            #expect(FileManager.default.fileExists(atPath: "\(folder.path)/\(made)/sample-book/manifest.json"), "\(arguments)")
        }
    }

    /// The supervisor's child matched its plans to the books by path, and a
    /// book given with a trailing slash (its plan's path has none) crashed
    /// the child and was counted failed without a line.
    @Test("A book given with a trailing slash renders whole")
    func trailingSlash() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try await onOwnThread { try mihiraki(["render", Fixtures.sampleBook.path + "/", "-o", folder.path + "/out", "--size", "x60"]) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("1 book, 8 spreads written to"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/sample-book/manifest.json"))
    }

    /// The supervisor: a book that crashes the process drawing it (the test
    /// hook MIHIRAKI_TEST_FAULT stands for a failure nobody foresaw) is named
    /// in one line with the spread, and every other book is written.
    /// A renderer killed by SIGKILL, as the out-of-memory killer kills the
    /// process using the most memory, is named as killed: that is no
    /// internal error to report.
    @Test("A book that crashes its renderer, or gets it killed, is named in one line with its spread; the others are written; exit 1",
          arguments: zip(["crash", "crash", "kill"], [1, 2, 2]))
    func crashedBookIsNamed(fault: String, jobs: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = Fixtures.sampleBook.path
        var books: [String] = []
        for name in ["a", "b", "c", "d"] {
            let book = folder.path + "/" + name
            try FileManager.default.copyItem(atPath: sample, toPath: book)
            books.append(book)
        }
        // Only book c has a page of this name: page 4, on spread 3, [4|5].
        try FileManager.default.moveItem(atPath: books[2] + "/page4.jpg", toPath: books[2] + "/page4-faulty.jpg")
        let out = folder.path + "/out"
        let chosen = books
        let run = try await onOwnThread { try mihiraki(["render"] + chosen + ["-o", out, "--size", "x80", "--jobs", String(jobs)],
                               environment: ["MIHIRAKI_TEST_FAULT": "\(fault):page4-faulty.jpg"]) }
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(run.stderr.prefix(2000))")
        #expect(lines.first == "mihiraki: \(books[2]): " + (fault == "kill" ? "killed by SIGKILL while rendering spread 3 (out of memory?)"
                                                                        : "internal error while rendering spread 3 (please report)"))
        #expect(lines.last?.hasPrefix("4 books, 24 spreads written to \(out), 1 failed") == true, "\(lines.last ?? "")")
        for name in ["a", "b", "d"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)/manifest.json"), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(out)/c/manifest.json"))
        // The same books without the fault: byte for byte what a run without a crash writes.
        let clean = folder.path + "/clean"
        let again = try await onOwnThread { try mihiraki(["render"] + chosen + ["-o", clean, "--size", "x80", "--quiet"]) }
        #expect(again.status == 0)
        for name in ["a", "b", "d"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: "\(out)/\(name)").sorted()
            #expect(files == (try FileManager.default.contentsOfDirectory(atPath: "\(clean)/\(name)").sorted()))
            for file in files {
                #expect(FileManager.default.contentsEqual(atPath: "\(out)/\(name)/\(file)", andPath: "\(clean)/\(name)/\(file)"),
                        "\(name)/\(file)")
            }
        }
    }

    /// A book that crashes while it is read (before any spread) is named too.
    @Test("A book whose only page crashes its renderer, alone: named, exit 1")
    func crashedOnlyBook() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("one/p1.png", try Fixtures.solidPNG(width: 30, height: 40, [120]))
        let run = try await onOwnThread { try mihiraki(["render", folder.path + "/one", "-o", folder.path + "/out", "--quiet"],
                               environment: ["MIHIRAKI_TEST_FAULT": "crash:p1.png"]) }
        #expect(run.status == 1)
        #expect(run.stderr == "mihiraki: \(folder.path)/one: internal error while rendering spread 1 (please report)\n")
    }

    /// `plan` reads pixels with --pairing auto, --split-wide auto and
    /// --crop-borders, through the decoders `render` supervises: a trap
    /// there (the test hook stands for one nobody foresaw) is one line naming
    /// the book, exit 1, not a bare signal.
    @Test("A book that crashes plan while its pixels are read is named in one line, exit 1; without the fault the plan is whole",
          arguments: [["--pairing", "auto"], ["--split-wide", "auto"], ["--crop-borders", "--json"]])
    func crashedPlanIsNamed(flags: [String]) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/book"
        try FileManager.default.copyItem(atPath: Fixtures.sampleBook.path, toPath: book)
        // Page 7 is the sample book's wide page, the one --split-wide auto reads.
        let run = try await onOwnThread { try mihiraki(["plan", book] + flags, environment: ["MIHIRAKI_TEST_FAULT": "crash:page7.jpg"]) }
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr == "mihiraki: \(book): internal error while planning it (please report)\n")
        #expect(run.stdout.isEmpty)
        // Without the fault: the plan, whole, on stdout.
        let clean = try await onOwnThread { try mihiraki(["plan", book] + flags) }
        #expect(clean.status == 0 && clean.stderr.isEmpty, "\(clean.stderr)")
        #expect(clean.stdout == (try planOutput([book] + flags)))
    }

    /// The out-of-memory killer ends the planning child with SIGKILL: the
    /// line says the book was killed, not that Mihiraki failed.
    @Test("plan --pairing auto whose child is killed by SIGKILL plans again one page at a time, then names the book as killed, exit 1")
    func killedPlanIsNamed() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // As render runs such a book again with one worker, a plan killed
        // reading pages two at a time is made again reading one at a time:
        // two children, then the kill named; with --jobs 1 there is no retry.
        for (jobs, children) in [("2", 2), ("1", 1)] {
            let (run, lines) = try await onOwnThread {
                try mihirakiTraced(["plan", Fixtures.sampleBook.path, "--pairing", "auto", "--jobs", jobs], calls: "execve",
                                   trace: folder.path + "/trace-\(jobs)", environment: ["MIHIRAKI_TEST_FAULT": "kill:page7.jpg"])
            }
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr == "mihiraki: \(Fixtures.sampleBook.path): killed by SIGKILL while planning it (out of memory?)\n")
            #expect(run.stdout.isEmpty)
            #expect(lines.filter { $0.contains("execve(\"/proc/self/exe\"") && $0.hasSuffix(" = 0") }.count == children,
                    "--jobs \(jobs): \(lines.joined(separator: "\n"))")
        }
    }

    /// An operator's SIGTERM sent to render's child alone (not to the
    /// command) is a signal from outside, as it is for `plan`: the command
    /// ends by it too, as it did as one process, and calls it no internal
    /// error nor renders the book again.
    @Test("render whose child alone gets SIGTERM ends by SIGTERM, with nothing on stderr")
    func renderChildTerminated() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = """
            import os, signal, subprocess, sys, time
            # As from a shell: nothing blocked (a test runner's thread blocks signals).
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            command = subprocess.Popen(sys.argv[1:], stderr=subprocess.PIPE, start_new_session=True,
                                       env=dict(os.environ, MIHIRAKI_TEST_FAULT="hang:page4.jpg"))
            child = None
            for _ in range(500):
                for pid in os.listdir("/proc"):
                    try:
                        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
                    except (OSError, IndexError):
                        continue
                    if pid.isdigit() and int(fields[1]) == command.pid:
                        child = int(pid)
                if child:
                    break
                time.sleep(0.02)
            if child is None:
                os.killpg(command.pid, signal.SIGKILL)
                sys.exit("no rendering child within 10 s")
            time.sleep(0.5)
            os.kill(child, signal.SIGTERM)
            try:
                err = command.communicate(timeout=30)[1]
                print(command.returncode, err.decode(errors="replace"))
            except subprocess.TimeoutExpired:
                # Rendering the hanging page again, say: end it all, and say so.
                os.killpg(command.pid, signal.SIGKILL)
                print("still running 30 s after its child got SIGTERM")
            """
        let arguments = ["-c", script, try mihirakiPath(), "render", Fixtures.sampleBook.path, "-o", folder.path + "/out", "--quiet"]
        let run = try await onOwnThread { try runTool("/usr/bin/python3", arguments) }
        #expect(run.stdout == "-\(SIGTERM) \n", "\(run.stdout) \(run.stderr)")
    }
}

