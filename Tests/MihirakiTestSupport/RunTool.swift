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
/// `environment` adds to (or overrides) this process's variables.
public func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
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
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    let status = exitStatus(of: process, within: 600) ?? -1
    return Run(status: status, stdout: String(decoding: stdout, as: UTF8.self),
               stderr: String(decoding: stderr, as: UTF8.self))
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
