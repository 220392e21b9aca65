import Dispatch

/// Watches a render from the inside: where the time of each spread goes.
/// `scripts/bench` prints these as its per-stage profile. Calls come from
/// every worker at once; an observer sums them itself.
package protocol RenderObserver: Sendable {
    /// A spread is about to be rendered.
    func spreadStarted()
    /// One stage of one spread took `nanoseconds`.
    func stage(_ stage: RenderStage, took nanoseconds: UInt64)
}
