/// One side of a two-page spread: a real page or a blank dummy page.
package enum Leaf: Hashable, Sendable {
    /// A page, by its 1-based number after deleted pages are dropped.
    case page(Int)
    /// One half of a wide page cut at its gutter (`--split-wide`).
    case half(Int, PageHalf)
    /// A blank dummy page standing in for a missing partner.
    case blank

    /// The page number (a half's is its wide page's), or `nil` for a blank.
    package var pageNumber: Int? {
        switch self {
        case .page(let number), .half(let number, _): return number
        case .blank: return nil
        }
    }

    /// `5`, `5a`, or `x` for a blank.
    package var notation: String {
        switch self {
        case .page(let number): return String(number)
        case .half(let number, let half): return "\(number)\(half.rawValue)"
        case .blank: return "x"
        }
    }
}

/// One output image: which pages it shows and where, in the order seen on screen.
package enum Spread: Hashable, Sendable, CustomStringConvertible {
    /// Two slots, as seen on screen: `left` first.
    case pair(left: Leaf, right: Leaf)
    /// A wide page (already a double-page spread) across both slots.
    case wide(Int)
    /// Single-page mode: one page on the image.
    case single(Int)
    /// Single-page mode: one half of a wide page cut at its gutter (`--split-wide`).
    case singleHalf(Int, PageHalf)

    /// The pages shown, left to right on screen.
    package var pages: [Int] {
        switch self {
        case .pair(let left, let right): return [left.pageNumber, right.pageNumber].compactMap { $0 }
        case .wide(let page), .single(let page), .singleHalf(let page, _): return [page]
        }
    }

    /// The notation of the imposition rules (Mihiraki.docc/ImpositionRules.md): `[x|1]`, `[4W]`, and `[1]` in
    /// single mode; a wide page cut in two is `[5a|5b]`, or `[5a]` and `[5b]` in single mode.
    package var description: String {
        switch self {
        case .pair(let left, let right): return "[\(left.notation)|\(right.notation)]"
        case .wide(let page): return "[\(page)W]"
        case .single(let page): return "[\(page)]"
        case .singleHalf(let page, let half): return "[\(Leaf.half(page, half).notation)]"
        }
    }

    /// The same spread seen in a right-to-left book: left and right swap.
    package var mirrored: Spread {
        if case .pair(let left, let right) = self { return .pair(left: right, right: left) }
        return self
    }
}
