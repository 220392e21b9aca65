import Foundation
import Mihiraki
import Synchronization

/// The per-stage profile `scripts/bench` reads: time per stage, summed over
/// all workers, printed after a render when `MIHIRAKI_PROFILE=1`.
final class StageProfile: RenderObserver, Sendable {
    private let state = Mutex<(totals: [RenderStage: UInt64], spreads: Int)>(([:], 0))

    /// A profile when the environment asks for one, otherwise `nil` (and no clock is read).
    static func fromEnvironment() -> StageProfile? {
        ProcessInfo.processInfo.environment["MIHIRAKI_PROFILE"] == "1" ? StageProfile() : nil
    }

    func spreadStarted() {
        state.withLock { $0.spreads += 1 }
    }

    func stage(_ stage: RenderStage, took nanoseconds: UInt64) {
        state.withLock { $0.totals[stage, default: 0] += nanoseconds }
    }

    /// `profile: read 0.4 ms, decode 31.2 ms, … per spread (N spreads, summed over workers)`.
    func summary() -> String {
        let (totals, spreads) = state.withLock { $0 }
        let n = max(spreads, 1)
        let parts = RenderStage.allCases.map { stage in
            String(format: "%@ %.1f ms", stage.rawValue, Double(totals[stage] ?? 0) / 1e6 / Double(n))
        }
        return "profile: " + parts.joined(separator: ", ") + " per spread (\(spreads) spreads, summed over workers)"
    }
}
