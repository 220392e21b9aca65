import Foundation
import MihirakiTestSupport
import Testing

@Suite("Command line: nothing crashes it, a closed pipe and bad usage", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct CrashPipeCLITests {
    /// A signal from outside the child (here a closed pipe) is no crash of
    /// Mihiraki's: the supervisor ends by it too, as the program did alone.
    @Test("plan --pairing auto into a pipe already closed ends by SIGPIPE, as a program does, with nothing on stderr")
    func planIntoClosedPipe() async throws {
        let script = """
            import os, subprocess, sys
            reading, writing = os.pipe()
            os.close(reading)
            done = subprocess.run(sys.argv[1:], stdout=writing, stderr=subprocess.PIPE)
            print(done.returncode, done.stderr.decode(errors="replace"))
            """
        let arguments = ["-c", script, try mihirakiPath(), "plan", Fixtures.sampleBook.path, "--pairing", "auto"]
        let run = try await onOwnThread { try runTool("/usr/bin/python3", arguments) }
        #expect(run.stdout == "-\(SIGPIPE) \n", "\(run.stdout) \(run.stderr)")
    }

    /// Option values and folders that were accepted, or answered with the
    /// wrong complaint: each is now one usage line naming it, exit 2, and
    /// nothing written.
    @Test("Usage lines: slots under a pixel, negative numbers, --diff without --check, an output folder holding the book")
    func usageLines() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/lib/book"
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.sampleBook.path, toPath: book)
        let out = folder.path + "/out"
        let cases: [([String], String)] = [
            (["render", book, "-o", out, "--page-aspect", "1e-300x1"], "--page-aspect 1e-300x1 leaves page slots under one pixel"),
            (["plan", book, "--page-aspect", "1x1e300"], "leaves page slots under one pixel"),
            (["render", book, "-o", out, "--gap", "-3"], "bad value for --gap: -3"),
            (["plan", book, "--solo", "-2"], "bad value for --solo: -2"),
            (["render", book, "-o", out, "--diff", folder.path + "/d"], "--diff goes with --check GOLDEN"),
            (["render", book, "-o", out, "--report", folder.path + "/r"], "--report goes with --check GOLDEN"),
            (["render", book, "-o", folder.path + "/lib"], "the output folder \(folder.path)/lib holds the book \(book)"),
            (["render", book, "-o", folder.path], "holds the book"),
        ]
        for (arguments, message) in cases {
            let run = try await onOwnThread { try mihiraki(arguments) }
            #expect(run.status == 2, "\(arguments): exit \(run.status)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1 && run.stderr.contains(message), "\(arguments): \(run.stderr.prefix(400))")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        let written = try FileManager.default.contentsOfDirectory(atPath: book).sorted()
        #expect(written == (try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleBook.path).sorted()))
    }
}
