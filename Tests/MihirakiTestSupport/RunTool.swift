import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a program printed, and how it ended.
public struct Run: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a program to completion, capturing its output and status: the built
/// `mihiraki`, or a real tool the tests use beside it (bsdtar, python3, chromium).
/// `environment` adds to (or overrides) this process's variables. A program
/// still running after `limit` seconds is killed and its run has status −1,
/// so a test that starts one that never ends fails by its name.
public func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    limit: TimeInterval = 600) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Both pipes are drained while the program runs (it may fill one), each on
    // a thread of its own, so waiting for the program keeps its limit.
    let drained = DispatchGroup()
    let outputs = [out, err].map { pipe in
        let output = PipeOutput()
        drained.enter()
        Thread.detachNewThread {
            output.data = pipe.fileHandleForReading.readDataToEndOfFile()
            drained.leave()
        }
        return output
    }
    let status = exitStatus(of: process, within: limit)
    var note = ""
    if status == nil {
        kill(process.processIdentifier, SIGKILL)
        _ = exitStatus(of: process, within: 10)
        note = "\n(runTool: \(executable) did not end within \(Int(limit)) s and was killed)"
    }
    // A program's own children may keep its pipes open after it ends.
    if drained.wait(timeout: .now() + 10) == .timedOut {
        note += "\n(runTool: \(executable)'s output was still open 10 s after it ended)"
    }
    return Run(status: status ?? -1, stdout: String(decoding: outputs[0].data, as: UTF8.self),
               stderr: String(decoding: outputs[1].data, as: UTF8.self) + note)
}

/// What one pipe carried; written by its reading thread before the run's
/// group is left, read after the group is waited for.
private final class PipeOutput: @unchecked Sendable {
    var data = Data()
}

/// The exit status of a started process, waiting at most `limit` seconds, so
/// a test fails by its name instead of hanging CI. Foundation reaps its
/// children when SIGCHLD reaches it; should that be missed for ten seconds,
/// the child is reaped here.
public func exitStatus(of process: Process, within limit: TimeInterval = 120) -> Int32? {
    let start = Date()
    while Date().timeIntervalSince(start) < limit {
        if !process.isRunning { return process.terminationStatus }
        if Date().timeIntervalSince(start) > 10 {
            var status: Int32 = 0
            if waitpid(process.processIdentifier, &status, WNOHANG) == process.processIdentifier {
                return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
        }
        usleep(2000)
    }
    return nil
}

/// Runs blocking work (a child process and the wait for it) on a thread
/// outside Swift's cooperative pool and awaits its result, so an async test
/// that waits does not hold one of the pool's few threads (two on a
/// two-core machine), which the in-process server tests need meanwhile. The
/// work stays in the test's own task (a task executor preference), so its
/// expectations are the test's.
public func onOwnThread<T: Sendable>(_ body: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try body() }
}

/// Runs each job on a thread of Dispatch's global pool, which may grow
/// beyond the number of cores, unlike the cooperative pool.
final class BlockingWorkExecutor: TaskExecutor {
    static let shared = BlockingWorkExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
