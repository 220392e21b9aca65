import Dispatch

/// The stages a spread goes through, as a ``RenderObserver`` hears of them.
package enum RenderStage: String, CaseIterable, Sendable {
    /// Reading page bytes from a folder or an archive.
    case read
    /// Decoding page rows.
    case decode
    /// Resampling rows into the canvas.
    case resample
    /// Reducing the canvas to its output colour type.
    case compose
    /// Encoding the output image.
    case encode
    /// Writing the output file.
    case write
}

/// Watches a render from the inside: where the time of each spread goes.
/// `scripts/bench` prints these as its per-stage profile. Calls come from
/// every worker at once; an observer sums them itself.
package protocol RenderObserver: Sendable {
    /// A spread is about to be rendered.
    func spreadStarted()
    /// One stage of one spread took `nanoseconds`.
    func stage(_ stage: RenderStage, took nanoseconds: UInt64)
}

/// When a render must stop: asked before each page and each decoded row.
package struct RenderDeadline: Sendable {
    /// Whether the render must stop now.
    package let isPast: @Sendable () -> Bool

    /// A deadline that says so itself (tests count the times it is asked).
    package init(isPast: @escaping @Sendable () -> Bool) { self.isPast = isPast }

    /// Past once the clock reaches `instant`.
    package static func at(_ instant: ContinuousClock.Instant) -> RenderDeadline {
        RenderDeadline { ContinuousClock.now >= instant }
    }
}

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
