/// The shape of every page slot, `A×B` (default 771×1200).
public struct PageAspect: Hashable, Sendable, CustomStringConvertible {
    /// The slot's relative width (771 by default).
    public var width: Double
    /// The slot's relative height (1200 by default).
    public var height: Double

    /// An aspect of `width : height`; both positive and finite.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// 771×1200, the shape of a manga tankōbon page.
    public static let standard = PageAspect(width: 771, height: 1200)

    /// Parses `AxB` with positive finite numbers, e.g. `771x1200` or `1x1.414`.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]),
              a.isFinite, b.isFinite, a > 0, b > 0 else { return nil }
        self.init(width: a, height: b)
    }

    public var description: String { "\(formatNumber(width))x\(formatNumber(height))" }
}

/// `2048` rather than `2048.0`; other values as Swift prints them.
func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
