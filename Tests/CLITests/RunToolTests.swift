import Foundation
import MihirakiTestSupport
import Testing

/// The tests' own way of running a program: a program that never ends must
/// cost a test its limit and its name in the report, not the whole run.
@Suite("The tests' tools: running a program", .tags(.process))
struct RunToolTests {
    @Test("A program still running at the limit is killed, reported with status −1, and what it printed is kept")
    func limit() throws {
        let start = Date()
        let run = try runTool("/bin/sh", ["-c", "echo started; exec sleep 60"], limit: 1)
        #expect(Date().timeIntervalSince(start) < 15, "took \(Date().timeIntervalSince(start)) s")
        #expect(run.status == -1 && run.stdout == "started\n", "\(run.status) \(run.stdout)")
        #expect(run.stderr.contains("did not end within 1 s"), "\(run.stderr)")
    }

    @Test("A program that fills its standard error before its output is read whole, with its status")
    func fullPipes() throws {
        let run = try runTool("/bin/sh", ["-c", "head -c 300000 /dev/zero >&2; echo done; exit 3"])
        #expect(run.status == 3 && run.stdout == "done\n" && run.stderr.utf8.count == 300_000, "\(run.status) \(run.stdout)")
    }
}
