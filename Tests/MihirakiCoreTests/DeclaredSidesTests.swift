import MihirakiTestSupport
import Testing
@testable import MihirakiCore

/// SPEC §1b: a page a book declares on one side (an EPUB's
/// `page-spread-left/right`) gets there with the fewest blanks; page 1's side
/// decides the cover; right to left mirrors; automatic pairing never moves a
/// declared page.
@Suite("Declared page sides", .tags(.unit), .timeLimit(.minutes(10)))
struct DeclaredSidesTests {
    func plan(_ pages: Int, _ options: ImpositionOptions, sides: [Int: PageSide], wide: Set<Int> = [],
              coverIsChosen: Bool = false) -> String {
        let placed = Imposition.placing(sides: sides, pageCount: pages, widePages: wide, options: options,
                                        coverIsChosen: coverIsChosen)
        var options = options
        options.cover = placed.cover
        options.blankBefore = placed.blankBefore
        return Imposition.spreads(pageCount: pages, widePages: wide, options: options).map(\.description).joined(separator: " ")
    }

    @Test("Right to left: page 1 on the right pairs the cover, [2|1]; page 1 on the left keeps it alone")
    func rightToLeftCover() {
        var rtl = ImpositionOptions()
        rtl.direction = .rtl
        #expect(plan(4, rtl, sides: [1: .right]) == "[2|1] [4|3]")
        #expect(plan(4, rtl, sides: [1: .left]) == "[1|x] [3|2] [x|4]")
        // A --cover flag was given: page 1's side does not change it.
        #expect(plan(4, rtl, sides: [1: .right], coverIsChosen: true) == "[1|x] [3|2] [x|4]")
    }

    @Test("Left to right: page 1 on the left pairs the cover; a later page on the wrong side gets one blank")
    func leftToRight() {
        let ltr = ImpositionOptions()
        #expect(plan(4, ltr, sides: [1: .left]) == "[1|2] [3|4]")
        #expect(plan(6, ltr, sides: [4: .left]) == "[x|1] [2|3] [4|5] [6|x]")  // already there: no blank
        #expect(plan(6, ltr, sides: [5: .left]) == "[x|1] [2|3] [4|x] [5|6]")
        #expect(plan(6, ltr, sides: [5: .left, 6: .left]) == "[x|1] [2|3] [4|x] [5|x] [6|x]")
    }

    @Test("In a right-to-left book a later page on the left gets one blank, mirrored")
    func rightToLeftLater() {
        var rtl = ImpositionOptions()
        rtl.direction = .rtl
        #expect(plan(6, rtl, sides: [4: .left]) == "[1|x] [3|2] [4|x] [6|5]")
        #expect(plan(6, rtl, sides: [5: .left]) == "[1|x] [3|2] [5|4] [x|6]")  // already there
    }

    @Test("Automatic pairing's repair never moves a declared page off its side")
    func repairKeepsSides() {
        let ltr = ImpositionOptions()
        // Pages 3+4 are a split; the blank before 3 that joins them would move 5 to the left.
        #expect(Imposition.repairs(pageCount: 6, options: ltr, splits: [3]).repaired == [3])
        #expect(Imposition.repairs(pageCount: 6, options: ltr, splits: [3], sides: [5: .right]).repaired.isEmpty)
        #expect(Imposition.repairs(pageCount: 6, options: ltr, splits: [3], sides: [5: .left]).repaired == [3])
    }
}
