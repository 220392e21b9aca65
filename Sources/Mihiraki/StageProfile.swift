import Foundation

/// Time spent per pipeline stage, summed over all workers; on when the
/// environment has `MIHIRAKI_PROFILE=1` (the benchmark sets it), otherwise
/// every call is one branch.
public enum StageProfile {
    public enum Stage: String, CaseIterable, Sendable {
        case read, decode, resample, compose, encode, write
    }

    public static let enabled = ProcessInfo.processInfo.environment["MIHIRAKI_PROFILE"] == "1"
    private static let lock = NSLock()
    nonisolated(unsafe) private static var totals: [Stage: UInt64] = [:]
    nonisolated(unsafe) private static var spreads = 0

    /// Runs `body`, adding its duration to `stage`.
    @inline(__always)
    static func measure<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            lock.lock(); totals[stage, default: 0] += elapsed; lock.unlock()
        }
        return try body()
    }

    /// A monotonic clock reading in nanoseconds (0 when profiling is off).
    @inline(__always)
    static func now() -> UInt64 { enabled ? DispatchTime.now().uptimeNanoseconds : 0 }

    /// Adds a duration measured by hand to `stage`.
    static func add(_ stage: Stage, _ nanoseconds: UInt64) {
        guard enabled else { return }
        lock.lock(); totals[stage, default: 0] += nanoseconds; lock.unlock()
    }

    static func countSpread() {
        guard enabled else { return }
        lock.lock(); spreads += 1; lock.unlock()
    }

    /// `profile: read 0.4 ms, decode 31.2 ms, … per spread (N spreads, all workers)`.
    public static func summary() -> String {
        lock.lock(); defer { lock.unlock() }
        let n = max(spreads, 1)
        let parts = Stage.allCases.map { stage in
            String(format: "%@ %.1f ms", stage.rawValue, Double(totals[stage] ?? 0) / 1e6 / Double(n))
        }
        return "profile: " + parts.joined(separator: ", ") + " per spread (\(spreads) spreads, summed over workers)"
    }
}
