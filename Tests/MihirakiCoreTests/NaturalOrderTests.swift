import MihirakiTestSupport
import Testing
@testable import MihirakiCore

@Suite("Natural order of file names", .tags(.unit), .timeLimit(.minutes(10)))
struct NaturalOrderTests {
    @Test("page2 < page10, case-insensitive, leading zeros by value")
    func order() {
        let names = ["page10.png", "Page2.png", "page1.png", "page002b.png", "cover.jpg", "page01.png", "a/page3.png"]
        #expect(NaturalOrder.sorted(names) == ["a/page3.png", "cover.jpg", "page01.png", "page1.png", "Page2.png",
                                               "page002b.png", "page10.png"])
    }

    @Test("Digits sort before letters; the order is total")
    func total() {
        #expect(NaturalOrder.less("1.png", "a.png"))
        #expect(!NaturalOrder.less("a.png", "a.png"))
        #expect(NaturalOrder.less("A.png", "a.png") != NaturalOrder.less("a.png", "A.png"))
        #expect(NaturalOrder.less("vol1/p9.png", "vol1/p10.png"))
        #expect(NaturalOrder.less("p99999999999999999999999.png", "p100000000000000000000000.png"))
    }
}
