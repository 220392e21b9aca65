/// Decides which pages share an image (Mihiraki.docc/ImpositionRules.md). Pure: no pixels, no I/O.
///
/// Spread mode is built once, left to right, as a stream of slots that
/// alternate left and right; right-to-left books are the same spreads mirrored,
/// never re-paired.
package enum Imposition {
    /// The spreads of a book, in the order they are written to files.
    ///
    /// - Parameters:
    ///   - pageCount: pages after deleted ones are dropped, numbered `1...pageCount`.
    ///   - widePages: pages that are already double-page spreads.
    ///   - options: layout, direction, cover mode and repairs.
    /// - Returns: reading order, or visual order for a right-to-left `strip`.
    package static func spreads(pageCount: Int, widePages: Set<Int> = [],
                               options: ImpositionOptions) -> [Spread] {
        guard pageCount > 0 else { return [] }
        var spreads: [Spread]
        switch options.layout {
        case .single:
            // One page per image; a wide page keeps its notation and gets the whole canvas.
            spreads = (1...pageCount).map { widePages.contains($0) ? .wide($0) : .single($0) }
        case .spread:
            spreads = leftToRightSpreads(pageCount: pageCount, widePages: widePages,
                                         soloPages: options.soloPages,
                                         blankBefore: options.blankBefore, cover: options.cover,
                                         backCover: options.backCover)
            if options.direction == .rtl { spreads = spreads.map(\.mirrored) }
        }
        if options.strip && options.direction == .rtl { spreads.reverse() }
        return spreads
    }

    /// The cover and blanks that put pages on the sides their book declares
    /// (an EPUB's `page-spread-left/right`, SPEC §1b): page 1's side decides
    /// the cover unless `coverIsChosen`; every later page gets a blank before
    /// it when it would fall on the other side, so the fewest blanks are
    /// inserted. Wide and solo pages are shown alone and have no side. In
    /// single layout nothing changes. `options.blankBefore` is kept.
    package static func placing(sides: [Int: PageSide], pageCount: Int, widePages: Set<Int> = [],
                                options: ImpositionOptions, coverIsChosen: Bool) -> (cover: CoverMode, blankBefore: Set<Int>) {
        var cover = options.cover, blankBefore = options.blankBefore
        guard options.layout == .spread else { return (cover, blankBefore) }
        // Page 1 on the right of a left-to-right book is a lone cover; mirrored in right to left.
        if !coverIsChosen, let first = sides[1], !widePages.contains(1), !options.soloPages.contains(1) {
            cover = (first == .right) == (options.direction == .ltr) ? .alone : .paired
        }
        for page in sides.keys.sorted() where page > 1 && page <= pageCount {
            var tried = options
            tried.cover = cover
            tried.blankBefore = blankBefore
            if !sidesHold([page: sides[page]!], pageCount: pageCount, widePages: widePages, options: tried) {
                tried.blankBefore.insert(page)
                if sidesHold([page: sides[page]!], pageCount: pageCount, widePages: widePages, options: tried) {
                    blankBefore.insert(page)
                }
            }
        }
        return (cover, blankBefore)
    }

    /// Whether every page of `sides` that shares a spread with another slot is on its side.
    package static func sidesHold(_ sides: [Int: PageSide], pageCount: Int, widePages: Set<Int> = [],
                                  options: ImpositionOptions) -> Bool {
        guard !sides.isEmpty, options.layout == .spread else { return true }
        var actual: [Int: PageSide] = [:]
        for spread in leftToRightSpreads(pageCount: pageCount, widePages: widePages, soloPages: options.soloPages,
                                         blankBefore: options.blankBefore, cover: options.cover,
                                         backCover: options.backCover) {
            guard case .pair(let left, let right) = spread else { continue }
            let mirrored = options.direction == .rtl
            if case .page(let page) = left { actual[page] = mirrored ? .right : .left }
            if case .page(let page) = right { actual[page] = mirrored ? .left : .right }
        }
        return sides.allSatisfy { page, side in actual[page].map { $0 == side } ?? true }
    }

    /// The blanks automatic pairing inserts (SPEC §2, "Repair"): for each
    /// split in reading order (given by its first page) that the spreads would
    /// break, a blank before its first page, kept only if the pair then shares
    /// a spread. `repaired` holds the splits that got one. In single layout
    /// nothing changes.
    /// A blank that would move a page of `sides` (the book's declarations) off
    /// its side is not inserted: declarations come first.
    package static func repairs(pageCount: Int, widePages: Set<Int> = [], options: ImpositionOptions,
                                splits: [Int], sides: [Int: PageSide] = [:]) -> (blankBefore: Set<Int>, repaired: Set<Int>) {
        var blankBefore = options.blankBefore, repaired = Set<Int>()
        guard options.layout == .spread else { return (blankBefore, repaired) }
        func together(_ first: Int, _ blanks: Set<Int>) -> Bool {
            leftToRightSpreads(pageCount: pageCount, widePages: widePages, soloPages: options.soloPages,
                               blankBefore: blanks, cover: options.cover, backCover: options.backCover)
                .contains { $0.pages.contains(first) && $0.pages.contains(first + 1) }
        }
        for first in splits.sorted() where !together(first, blankBefore) {
            let tried = blankBefore.union([first])
            var triedOptions = options
            triedOptions.blankBefore = tried
            if together(first, tried)
                && sidesHold(sides, pageCount: pageCount, widePages: widePages, options: triedOptions) {
                blankBefore = tried
                repaired.insert(first)
            }
        }
        return (blankBefore, repaired)
    }

    /// The left-to-right spreads in reading order.
    ///
    /// A slot stream: each page (or inserted blank) takes the next side. A page
    /// waiting on the left with no partner gets a blank (`[4|x]`) when a wide or
    /// solo page interrupts, or at the end. A spread holding only blanks is
    /// never emitted, so `--blank-before 1` with a lone cover is the same as
    /// `--cover paired`.
    static func leftToRightSpreads(pageCount: Int, widePages: Set<Int>, soloPages: Set<Int>,
                                   blankBefore: Set<Int>, cover: CoverMode,
                                   backCover: BackCoverMode = .paired) -> [Spread] {
        var spreads: [Spread] = []
        // The leaf waiting on the left for a partner, if the next slot is a right one.
        var waitingLeft: Leaf? = nil
        // True when the next slot is a right one (page 1 of a book with a lone cover is a recto).
        var nextIsRight = cover == .alone

        func emit(left: Leaf, right: Leaf) {
            if left != .blank || right != .blank { spreads.append(.pair(left: left, right: right)) }
        }
        func place(_ leaf: Leaf) {
            if nextIsRight {
                emit(left: waitingLeft ?? .blank, right: leaf)
                waitingLeft = nil
                nextIsRight = false
            } else {
                waitingLeft = leaf
                nextIsRight = true
            }
        }
        func closeOpenSpread() {
            if let left = waitingLeft { emit(left: left, right: .blank) }
            waitingLeft = nil
            nextIsRight = false
        }

        for page in 1...pageCount {
            if blankBefore.contains(page) { place(.blank) }
            if widePages.contains(page) {
                closeOpenSpread()
                spreads.append(.wide(page))
            } else if backCover == .alone && page == pageCount && pageCount > 1 {
                // The back cover: alone on the left, whatever side it would fall on
                // (a one-page book's only page is its front cover).
                closeOpenSpread()
                emit(left: .page(page), right: .blank)
            } else if soloPages.contains(page) {
                // Alone on the side it falls on, so the cover case `[x|1]` is
                // the same rule; pairing restarts after it.
                let fallsOnRight = nextIsRight
                closeOpenSpread()
                if fallsOnRight {
                    emit(left: .blank, right: .page(page))
                } else {
                    emit(left: .page(page), right: .blank)
                }
            } else {
                place(.page(page))
            }
        }
        closeOpenSpread()
        return spreads
    }
}
