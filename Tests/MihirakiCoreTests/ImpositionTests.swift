import MihirakiTestSupport
import Testing
@testable import MihirakiCore

/// Parses the plan notation, `[x|1] [2|3] [5W]`, into spreads.
func spreads(_ notation: String) -> [Spread] {
    notation.split(separator: " ").map { token in
        let inner = token.dropFirst().dropLast()
        if inner.hasSuffix("W") { return .wide(Int(inner.dropLast())!) }
        let sides = inner.split(separator: "|")
        if sides.count == 1 { return .single(Int(sides[0])!) }
        func leaf(_ s: Substring) -> Leaf { s == "x" ? .blank : .page(Int(s)!) }
        return .pair(left: leaf(sides[0]), right: leaf(sides[1]))
    }
}

struct SpecTableRow: CustomTestStringConvertible, Sendable {
    var book: String
    var pages: Int
    var wide: Set<Int>
    var cover: CoverMode
    var ltr: String
    var rtl: String
    var testDescription: String { book }
}

/// The table of Mihiraki.docc/ImpositionRules.md, row by row.
let specTable: [SpecTableRow] = [
    .init(book: "6 pages", pages: 6, wide: [], cover: .alone,
          ltr: "[x|1] [2|3] [4|5] [6|x]", rtl: "[1|x] [3|2] [5|4] [x|6]"),
    .init(book: "5 pages", pages: 5, wide: [], cover: .alone,
          ltr: "[x|1] [2|3] [4|5]", rtl: "[1|x] [3|2] [5|4]"),
    .init(book: "1 page", pages: 1, wide: [], cover: .alone, ltr: "[x|1]", rtl: "[1|x]"),
    .init(book: "8 pages, page 4 wide", pages: 8, wide: [4], cover: .alone,
          ltr: "[x|1] [2|3] [4W] [5|6] [7|8]", rtl: "[1|x] [3|2] [4W] [6|5] [8|7]"),
    .init(book: "8 pages, page 5 wide", pages: 8, wide: [5], cover: .alone,
          ltr: "[x|1] [2|3] [4|x] [5W] [6|7] [8|x]", rtl: "[1|x] [3|2] [x|4] [5W] [7|6] [x|8]"),
    .init(book: "6 pages, page 1 wide", pages: 6, wide: [1], cover: .alone,
          ltr: "[1W] [2|3] [4|5] [6|x]", rtl: "[1W] [3|2] [5|4] [x|6]"),
    .init(book: "6 pages, --cover paired", pages: 6, wide: [], cover: .paired,
          ltr: "[1|2] [3|4] [5|6]", rtl: "[2|1] [4|3] [6|5]"),
]

@Suite("Imposition (ImpositionRules.md)", .tags(.unit), .timeLimit(.minutes(10)))
struct ImpositionTests {
    @Test("The rules' table, left to right", arguments: specTable)
    func specTableLTR(row: SpecTableRow) {
        let result = Imposition.spreads(pageCount: row.pages, widePages: row.wide,
                                        options: ImpositionOptions(direction: .ltr, cover: row.cover))
        #expect(result == spreads(row.ltr))
    }

    @Test("The rules' table, right to left", arguments: specTable)
    func specTableRTL(row: SpecTableRow) {
        let result = Imposition.spreads(pageCount: row.pages, widePages: row.wide,
                                        options: ImpositionOptions(direction: .rtl, cover: row.cover))
        #expect(result == spreads(row.rtl))
    }

    @Test("--strip writes an RTL book in visual order")
    func stripRTL() {
        let result = Imposition.spreads(pageCount: 6, options: ImpositionOptions(direction: .rtl, strip: true))
        #expect(result == spreads("[x|6] [5|4] [3|2] [1|x]"))
    }

    @Test("--strip leaves an LTR book in reading order, which is its visual order")
    func stripLTR() {
        let result = Imposition.spreads(pageCount: 6, options: ImpositionOptions(direction: .ltr, strip: true))
        #expect(result == spreads("[x|1] [2|3] [4|5] [6|x]"))
    }

    @Test("Single mode never shows a blank, wide pages included", arguments: [ReadingDirection.ltr, .rtl])
    func singleMode(direction: ReadingDirection) {
        let result = Imposition.spreads(pageCount: 5, widePages: [3], options:
            ImpositionOptions(layout: .single, direction: direction, soloPages: [2], blankBefore: [4]))
        #expect(result == spreads("[1] [2] [3W] [4] [5]"))
    }

    @Test("--blank-before inserts a dummy page that shifts pairing")
    func blankBefore() {
        let result = Imposition.spreads(pageCount: 6, options: ImpositionOptions(blankBefore: [2]))
        #expect(result == spreads("[x|1] [x|2] [3|4] [5|6]"))
        let later = Imposition.spreads(pageCount: 6, options: ImpositionOptions(blankBefore: [4]))
        #expect(later == spreads("[x|1] [2|3] [x|4] [5|6]"))
        let onRight = Imposition.spreads(pageCount: 6, options: ImpositionOptions(blankBefore: [3]))
        #expect(onRight == spreads("[x|1] [2|x] [3|4] [5|6]"))
    }

    @Test("--blank-before 1 with a lone cover is the same as --cover paired")
    func blankBeforeCover() {
        let shifted = Imposition.spreads(pageCount: 6, options: ImpositionOptions(blankBefore: [1]))
        #expect(shifted == Imposition.spreads(pageCount: 6, options: ImpositionOptions(cover: .paired)))
    }

    @Test("A blank before a wide page never makes an all-blank spread")
    func blankBeforeWide() {
        let result = Imposition.spreads(pageCount: 5, widePages: [4], options: ImpositionOptions(blankBefore: [4]))
        #expect(result == spreads("[x|1] [2|3] [4W] [5|x]"))
    }

    @Test("--solo keeps a page on its own side and restarts pairing after it")
    func solo() {
        #expect(Imposition.spreads(pageCount: 6, options: ImpositionOptions(soloPages: [3]))
                == spreads("[x|1] [2|x] [x|3] [4|5] [6|x]"))
        #expect(Imposition.spreads(pageCount: 6, options: ImpositionOptions(soloPages: [4]))
                == spreads("[x|1] [2|3] [4|x] [5|6]"))
        #expect(Imposition.spreads(pageCount: 4, options: ImpositionOptions(cover: .paired, soloPages: [1]))
                == spreads("[1|x] [2|3] [4|x]"))
        // The lone cover is the solo rule applied to page 1.
        #expect(Imposition.spreads(pageCount: 5, options: ImpositionOptions(soloPages: [1]))
                == Imposition.spreads(pageCount: 5, options: ImpositionOptions()))
    }

    @Test("--solo in RTL is the mirror image")
    func soloRTL() {
        #expect(Imposition.spreads(pageCount: 6, options: ImpositionOptions(direction: .rtl, soloPages: [3]))
                == spreads("[1|x] [x|2] [3|x] [5|4] [x|6]"))
    }

    @Test("An empty book has no spreads")
    func emptyBook() {
        #expect(Imposition.spreads(pageCount: 0, options: ImpositionOptions()).isEmpty)
    }

    /// Every book of up to 9 pages with every set of wide pages, solo pages and
    /// blanks among its first pages: each page shows exactly once, in order,
    /// no spread is all blank, and RTL is exactly the mirror of LTR.
    @Test("Invariants over all small books")
    func invariants() {
        for pages in 1...9 {
            for mask in 0..<(1 << min(pages, 5)) {
                let wide = Set((1...pages).filter { $0 <= 5 && mask & (1 << ($0 - 1)) != 0 })
                for cover in CoverMode.allCases {
                    for extra in [ImpositionOptions(cover: cover), ImpositionOptions(cover: cover, soloPages: [2]),
                                  ImpositionOptions(cover: cover, blankBefore: [3])] {
                        var rtl = extra
                        rtl.direction = .rtl
                        let a = Imposition.spreads(pageCount: pages, widePages: wide, options: extra)
                        let b = Imposition.spreads(pageCount: pages, widePages: wide, options: rtl)
                        #expect(a.flatMap(\.pages) == Array(1...pages))
                        #expect(b == a.map(\.mirrored))
                        for spread in a {
                            if case .pair(let l, let r) = spread { #expect(l != .blank || r != .blank) }
                            if case .wide(let p) = spread { #expect(wide.contains(p)) }
                        }
                        // In LTR a pair's lower page number is on the left.
                        for case .pair(.page(let l), .page(let r)) in a { #expect(l + 1 == r) }
                    }
                }
            }
        }
    }

    @Test("Notation")
    func notation() {
        #expect(spreads("[x|1] [2|3] [4W] [5]").map(\.description) == ["[x|1]", "[2|3]", "[4W]", "[5]"])
    }
}
