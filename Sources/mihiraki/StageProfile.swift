import Foundation
import Mihiraki

/// The per-stage profile `scripts/bench` reads: time per stage, summed over
/// all workers, printed after a render when `MIHIRAKI_PROFILE=1`.
final class StageProfile: RenderObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var totals: [RenderStage: UInt64] = [:]
    private var spreads = 0

    /// A profile when the environment asks for one, otherwise `nil` (and no clock is read).
    static func fromEnvironment() -> StageProfile? {
        ProcessInfo.processInfo.environment["MIHIRAKI_PROFILE"] == "1" ? StageProfile() : nil
    }

    func spreadStarted() {
        lock.lock(); spreads += 1; lock.unlock()
    }

    func stage(_ stage: RenderStage, took nanoseconds: UInt64) {
        lock.lock(); totals[stage, default: 0] += nanoseconds; lock.unlock()
    }

    /// `profile: read 0.4 ms, decode 31.2 ms, … per spread (N spreads, summed over workers)`.
    func summary() -> String {
        lock.lock(); defer { lock.unlock() }
        let n = max(spreads, 1)
        let parts = RenderStage.allCases.map { stage in
            String(format: "%@ %.1f ms", stage.rawValue, Double(totals[stage] ?? 0) / 1e6 / Double(n))
        }
        return "profile: " + parts.joined(separator: ", ") + " per spread (\(spreads) spreads, summed over workers)"
    }
}
