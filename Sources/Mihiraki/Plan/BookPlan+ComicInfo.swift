import MihirakiCore

extension BookPlan {
    /// The book's `ComicInfo.xml` (or a new one) with both pages of every
    /// split, found or declared, marked `DoublePage="true"` (`render --write-comicinfo`).
    func comicInfoMarkingSplits() throws -> [UInt8] {
        let sources = Set(decisions.splitFirstPages.flatMap { [pages[$0 - 1].source, pages[$0].source] })
        let images = Set(book.images.indices.filter { sources.contains(book.images[$0].source) })
        let original = try book.comicInfoPath.map { try book.storage.read($0) }
        return ComicInfo.markingDoublePages(images, in: original)
    }
}
