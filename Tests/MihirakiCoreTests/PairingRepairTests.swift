import MihirakiTestSupport
import Testing
@testable import MihirakiCore

/// SPEC §2, "Repair": a split is kept together the way a wide page is; this
/// equals the static plan with `--blank-before a` for each split static
/// pairing would break, taken in reading order; explicit flags come first.
@Suite("Automatic pairing: the repair of a split", .tags(.unit), .timeLimit(.minutes(10)))
struct PairingRepairTests {
    func plan(_ pages: Int, _ options: ImpositionOptions, splits: [Int], wide: Set<Int> = []) -> String {
        var repaired = options
        repaired.blankBefore = Imposition.repairs(pageCount: pages, widePages: wide, options: options, splits: splits).blankBefore
        return Imposition.spreads(pageCount: pages, widePages: wide, options: repaired).map(\.description).joined(separator: " ")
    }

    @Test("A split static pairing breaks gets a blank before its first page; one it keeps is left alone")
    func brokenAndKept() {
        let ltr = ImpositionOptions()
        #expect(plan(6, ltr, splits: []) == "[x|1] [2|3] [4|5] [6|x]")
        #expect(plan(6, ltr, splits: [2]) == "[x|1] [2|3] [4|5] [6|x]")  // already together
        #expect(plan(6, ltr, splits: [3]) == "[x|1] [2|x] [3|4] [5|6]")
        #expect(plan(7, ltr, splits: [3, 6]) == "[x|1] [2|x] [3|4] [5|x] [6|7]")
        #expect(Imposition.repairs(pageCount: 6, options: ltr, splits: [2, 3]).repaired == [3])
    }

    @Test("Right to left is the mirror image: the same pages share a spread")
    func rightToLeft() {
        var rtl = ImpositionOptions()
        rtl.direction = .rtl
        #expect(plan(6, rtl, splits: [3]) == "[1|x] [x|2] [4|3] [6|5]")
    }

    @Test("Explicit flags come first: a blank-before between the halves stays, a solo page is not moved")
    func flagsFirst() {
        var options = ImpositionOptions()
        options.blankBefore = [4]
        // The user's blank before 4 separates 3 and 4 whatever is added before 3.
        #expect(plan(6, options, splits: [3]) == "[x|1] [2|3] [x|4] [5|6]")
        options.blankBefore = []
        options.soloPages = [4]
        #expect(plan(6, options, splits: [3]) == "[x|1] [2|3] [4|x] [5|6]")
    }

    @Test("A wide page before a split restarts pairing; single layout never changes")
    func wideAndSingle() {
        #expect(plan(7, ImpositionOptions(), splits: [4], wide: [2]) == "[x|1] [2W] [3|x] [4|5] [6|7]")
        var single = ImpositionOptions()
        single.layout = .single
        #expect(plan(4, single, splits: [2]) == "[1] [2] [3] [4]")
    }

    @Test("On 300 seeded books: every repaired split shares a spread, and the result is the blank-before rule taken in reading order")
    func seededBooks() {
        var generator = SeededGenerator(seed: 22)
        for _ in 0..<300 {
            let pages = Int.random(in: 2...30, using: &generator)
            var options = ImpositionOptions()
            options.cover = Bool.random(using: &generator) ? .alone : .paired
            options.backCover = Bool.random(using: &generator) ? .alone : .paired
            let wide = Set((1...pages).filter { _ in Int.random(in: 0..<8, using: &generator) == 0 })
            var splits: [Int] = []
            var page = 1
            while page < pages {
                if !wide.contains(page) && !wide.contains(page + 1) && Int.random(in: 0..<4, using: &generator) == 0 {
                    splits.append(page)
                    page += 2
                } else {
                    page += 1
                }
            }
            let result = Imposition.repairs(pageCount: pages, widePages: wide, options: options, splits: splits)
            var repaired = options
            repaired.blankBefore = result.blankBefore
            let spreads = Imposition.spreads(pageCount: pages, widePages: wide, options: repaired)
            // Written out independently: each split in reading order, a blank before it when it is broken.
            var blanks = Set<Int>()
            for first in splits {
                var trial = options
                trial.blankBefore = blanks
                let before = Imposition.spreads(pageCount: pages, widePages: wide, options: trial)
                if !before.contains(where: { Set($0.pages).isSuperset(of: [first, first + 1]) }) { blanks.insert(first) }
            }
            var expected = options
            expected.blankBefore = blanks
            let back = options.backCover == .alone
            #expect(spreads == Imposition.spreads(pageCount: pages, widePages: wide, options: expected) || back,
                    "\(pages) pages, wide \(wide.sorted()), splits \(splits)")
            for first in splits where !(back && first + 1 == pages) {
                #expect(spreads.contains { Set($0.pages).isSuperset(of: [first, first + 1]) },
                        "\(pages) pages, wide \(wide.sorted()), split \(first)")
            }
        }
    }
}
