import Dispatch

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
