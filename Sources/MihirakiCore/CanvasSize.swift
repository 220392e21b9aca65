/// `--size`: an exact canvas, or one side given and the other derived from the
/// spread's natural aspect (thumbnails with no bars).
public enum CanvasSize: Hashable, Sendable, CustomStringConvertible {
    /// `2048x1536`: exactly this size.
    case exact(width: Int, height: Int)
    /// `x300`: this height, width from the aspect.
    case height(Int)
    /// `400x`: this width, height from the aspect.
    case width(Int)

    /// Parses `WxH`, `xH` or `Wx`. Returns `nil` for anything else or for
    /// non-positive numbers.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let w = parts[0].isEmpty ? nil : Int(parts[0]), h = parts[1].isEmpty ? nil : Int(parts[1])
        switch (parts[0].isEmpty, parts[1].isEmpty) {
        case (false, false):
            guard let w, let h, w > 0, h > 0 else { return nil }
            self = .exact(width: w, height: h)
        case (true, false):
            guard let h, h > 0 else { return nil }
            self = .height(h)
        case (false, true):
            guard let w, w > 0 else { return nil }
            self = .width(w)
        case (true, true):
            return nil
        }
    }

    /// The canvas in pixels. A derived side is the natural size of two page
    /// slots plus the gap (one slot in single mode), snapped like every edge.
    package func resolved(layout: LayoutMode, pageAspect: PageAspect, gap: Double) -> (width: Int, height: Int) {
        let slots = layout == .spread ? 2.0 : 1.0
        let between = layout == .spread ? gap : 0
        let ratio = slots * pageAspect.width / pageAspect.height
        switch self {
        case .exact(let w, let h):
            return (w, h)
        case .height(let h):
            return (max(1, Self.pixels(Double(h) * ratio + between)), h)
        case .width(let w):
            return (w, max(1, Self.pixels((Double(w) - between) / ratio)))
        }
    }

    /// A derived side in whole pixels, snapped. Options are checked after the
    /// canvas is resolved, so an absurd gap or size must still give a number:
    /// beyond `Int`'s range, infinite or not a number, it is `Int.max` (or,
    /// far below zero, `Int.min`), a side every caller refuses.
    private static func pixels(_ value: Double) -> Int {
        let snapped = snap(value)
        guard !snapped.isNaN else { return .max }
        if snapped >= 0x1p63 { return .max }
        if snapped < -0x1p63 { return .min }
        return Int(snapped)
    }

    public var description: String {
        switch self {
        case .exact(let w, let h): return "\(w)x\(h)"
        case .height(let h): return "x\(h)"
        case .width(let w): return "\(w)x"
        }
    }
}
