/// One side of a two-page spread: a real page or a blank dummy page.
package enum Leaf: Hashable, Sendable {
    /// A page, by its 1-based number after deleted pages are dropped.
    case page(Int)
    /// A blank dummy page standing in for a missing partner.
    case blank

    /// The page number, or `nil` for a blank.
    package var pageNumber: Int? {
        if case .page(let number) = self { return number }
        return nil
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

    /// The pages shown, left to right on screen.
    package var pages: [Int] {
        switch self {
        case .pair(let left, let right): return [left.pageNumber, right.pageNumber].compactMap { $0 }
        case .wide(let page), .single(let page): return [page]
        }
    }

    /// The notation of the imposition rules (Mihiraki.docc/ImpositionRules.md): `[x|1]`, `[4W]`, and `[1]` in single mode.
    package var description: String {
        func text(_ leaf: Leaf) -> String { leaf.pageNumber.map(String.init) ?? "x" }
        switch self {
        case .pair(let left, let right): return "[\(text(left))|\(text(right))]"
        case .wide(let page): return "[\(page)W]"
        case .single(let page): return "[\(page)]"
        }
    }

    /// The same spread seen in a right-to-left book: left and right swap.
    package var mirrored: Spread {
        if case .pair(let left, let right) = self { return .pair(left: right, right: left) }
        return self
    }
}
