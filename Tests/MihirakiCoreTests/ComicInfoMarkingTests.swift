@testable import MihirakiCore
import Testing

/// `ComicInfo.markingDoublePages`: the splits written back into a book's
/// `ComicInfo.xml`, everything else kept as written.
@Suite("ComicInfo: marking double pages")
struct ComicInfoMarkingTests {
    func parsed(_ bytes: [UInt8]) throws -> ComicInfo { try ComicInfo.parse(bytes) }

    @Test("Without a ComicInfo.xml: a document with only the marked pages")
    func fresh() throws {
        let info = try parsed(ComicInfo.markingDoublePages([4, 5], in: nil))
        #expect(info.pages[4]?.doublePage == true && info.pages[5]?.doublePage == true && info.pages.count == 2)
    }

    @Test("An existing page gains the attribute, a false one turns true, a missing page is added; other text stays")
    func existing() throws {
        let original = """
        <?xml version="1.0"?>
        <ComicInfo>
          <Title>Vol. 1 &amp; more</Title>
          <Manga>YesAndRightToLeft</Manga>
          <Pages>
            <Page Image="0" Type="FrontCover" ImageWidth="800" />
            <Page Image='3' DoublePage = 'false' Key="x"/>
            <Page Image="7" />
          </Pages>
        </ComicInfo>
        """
        let marked = String(decoding: ComicInfo.markingDoublePages([3, 4, 7], in: Array(original.utf8)), as: UTF8.self)
        let info = try parsed(Array(marked.utf8))
        #expect(info.direction == .rightToLeft)
        #expect(info.pages[0]?.isFrontCover == true && info.pages[0]?.doublePage == false)
        #expect([3, 4, 7].allSatisfy { info.pages[$0]?.doublePage == true })
        #expect(marked.contains("<Title>Vol. 1 &amp; more</Title>") && marked.contains("ImageWidth=\"800\"") && marked.contains("Key=\"x\""))
        #expect(marked.contains("DoublePage = 'true'"))
        // An added page sits on its own line, indented like its neighbours.
        #expect(marked.contains("<Page DoublePage=\"true\" Image=\"7\" />\n    <Page Image=\"4\" DoublePage=\"true\" />\n  </Pages>"), "\(marked)")
    }

    @Test("No <Pages> element: one is added; a malformed original is replaced by a fresh document")
    func noPagesAndMalformed() throws {
        let without = String(decoding: ComicInfo.markingDoublePages([2], in: Array("<ComicInfo><Series>S</Series></ComicInfo>".utf8)), as: UTF8.self)
        #expect(try parsed(Array(without.utf8)).pages[2]?.doublePage == true && without.contains("<Series>S</Series>"))
        let broken = ComicInfo.markingDoublePages([2], in: Array("<ComicInfo><Pages>".utf8))
        #expect(try parsed(broken).pages[2]?.doublePage == true)
    }
}
