import MihirakiTestSupport
import Testing
@testable import MihirakiCore

/// Komga's "double pages" reader mode, ported from the description of its
/// rule (the project's reader notes), not from its code: the first page alone
/// `[E, 1]` (`[1]` when landscape); the last page taken out of the pairing and
/// appended as `[N, E]` (`[N]` when landscape); the pages between paired
/// greedily, a landscape page alone, a portrait page followed by a landscape
/// one padded `[p, E]`, a leftover page `[p, E]`.
enum KomgaDoublePages {
    enum Cell: Equatable, CustomStringConvertible {
        case page(Int), empty
        var description: String { if case .page(let n) = self { "\(n)" } else { "E" } }
    }

    static func spreads(pageCount: Int, landscape: Set<Int>) -> [[Cell]] {
        guard pageCount > 0 else { return [] }
        var spreads: [[Cell]] = [landscape.contains(1) ? [.page(1)] : [.empty, .page(1)]]
        guard pageCount > 1 else { return spreads }
        let middle = Array(2..<pageCount)
        var i = 0
        while i < middle.count {
            let page = middle[i]
            if landscape.contains(page) {
                spreads.append([.page(page)])
                i += 1
            } else if i + 1 < middle.count && !landscape.contains(middle[i + 1]) {
                spreads.append([.page(page), .page(middle[i + 1])])
                i += 2
            } else {
                spreads.append([.page(page), .empty])
                i += 1
            }
        }
        spreads.append(landscape.contains(pageCount) ? [.page(pageCount)] : [.page(pageCount), .empty])
        return spreads
    }

    /// Mihiraki's spreads in Komga's terms.
    static func cells(_ spreads: [Spread]) -> [[Cell]] {
        spreads.map { spread in
            func cell(_ leaf: Leaf) -> Cell { leaf.pageNumber.map(Cell.page) ?? .empty }
            switch spread {
            case .pair(let left, let right): return [cell(left), cell(right)]
            case .wide(let page), .single(let page), .singleHalf(let page, _): return [.page(page)]
            }
        }
    }
}

@Suite("The back cover (--back-cover alone), as Komga's reader shows it", .tags(.unit), .timeLimit(.minutes(10)))
struct BackCoverTests {
    static func notation(_ pages: Int, wide: Set<Int> = [], _ direction: ReadingDirection = .ltr,
                         backCover: BackCoverMode = .alone, cover: CoverMode = .alone) -> String {
        Imposition.spreads(pageCount: pages, widePages: wide,
                           options: ImpositionOptions(direction: direction, cover: cover, backCover: backCover))
            .map(\.description).joined(separator: " ")
    }

    @Test("The rule's table, left to right and mirrored")
    func table() {
        #expect(Self.notation(5) == "[x|1] [2|3] [4|x] [5|x]")
        #expect(Self.notation(5, .rtl) == "[1|x] [3|2] [x|4] [x|5]")
        #expect(Self.notation(6) == "[x|1] [2|3] [4|5] [6|x]")
        #expect(Self.notation(6, .rtl) == "[1|x] [3|2] [5|4] [x|6]")
        #expect(Self.notation(1) == "[x|1]", "a one-page book's page is its front cover")
        #expect(Self.notation(2) == "[x|1] [2|x]")
        #expect(Self.notation(8, wide: [8]) == "[x|1] [2|3] [4|5] [6|7] [8W]", "a wide last page stays wide")
        #expect(Self.notation(7, wide: [6]) == "[x|1] [2|3] [4|5] [6W] [7|x]")
        #expect(Self.notation(5, cover: .paired) == "[1|2] [3|4] [5|x]")
        #expect(Self.notation(6, cover: .paired) == "[1|2] [3|4] [5|x] [6|x]")
        #expect(Self.notation(5, backCover: .paired) == "[x|1] [2|3] [4|5]", "paired is today's rule")
    }

    @Test("Komga's rule and Mihiraki's agree on 500 random books (seeded), wide pages anywhere")
    func matchesKomga() {
        var generator = SeededGenerator(seed: 22)
        for _ in 0..<500 {
            let pages = Int.random(in: 1...40, using: &generator)
            let wide = Set((1...pages).filter { _ in Int.random(in: 0..<10, using: &generator) == 0 })
            let ours = Imposition.spreads(pageCount: pages, widePages: wide,
                                          options: ImpositionOptions(backCover: .alone))
            let komga = KomgaDoublePages.spreads(pageCount: pages, landscape: wide)
            #expect(KomgaDoublePages.cells(ours) == komga, "\(pages) pages, wide \(wide.sorted())")
        }
    }

    @Test("Without it, Komga's rule differs only in the last spread or two, where it shows the back cover")
    func pairedDiffersOnlyAtTheEnd() {
        var generator = SeededGenerator(seed: 23)
        var differing = 0
        for _ in 0..<200 {
            let pages = Int.random(in: 2...40, using: &generator)
            let ours = KomgaDoublePages.cells(Imposition.spreads(pageCount: pages, options: ImpositionOptions()))
            let komga = KomgaDoublePages.spreads(pageCount: pages, landscape: [])
            if ours != komga {
                differing += 1
                let common = zip(ours, komga).prefix { $0.0 == $0.1 }.count
                #expect(common >= min(ours.count, komga.count) - 1, "\(pages) pages: \(ours) against \(komga)")
            }
        }
        #expect(differing > 0, "odd page counts end differently")
    }
}
