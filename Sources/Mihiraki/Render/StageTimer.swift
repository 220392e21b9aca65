import Dispatch

/// Times stages for an optional observer (with none, no clock is read), and
/// stops a render that has a deadline once it is past it.
struct StageTimer: Sendable {
    let observer: (any RenderObserver)?
    var deadline: RenderDeadline? = nil

    /// Throws once the deadline has passed.
    /// - Throws: ``MihirakiError`` with code `.timedOut`.
    @inline(__always)
    func checkDeadline() throws {
        if let deadline, deadline.isPast() {
            throw MihirakiError(.timedOut, "the render ran past its time limit and was stopped")
        }
    }

    /// A monotonic clock reading in nanoseconds (0 with no observer).
    @inline(__always)
    func now() -> UInt64 { observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds }

    /// Runs `body` and reports its duration as `stage`.
    @inline(__always)
    func measure<T>(_ stage: RenderStage, _ body: () throws -> T) rethrows -> T {
        guard let observer else { return try body() }
        let start = now()
        defer { observer.stage(stage, took: now() &- start) }
        return try body()
    }

    /// Reports a duration measured by hand.
    func add(_ stage: RenderStage, _ nanoseconds: UInt64) { observer?.stage(stage, took: nanoseconds) }
}
