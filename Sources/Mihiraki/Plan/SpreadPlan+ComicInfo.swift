import MihirakiCore

extension SpreadPlan {
    /// The book's `ComicInfo.xml` (or a new one) with both pages of every
    /// split, found or declared, marked `DoublePage="true"` (`render --write-comicinfo`).
    func comicInfoMarkingSplits() throws -> [UInt8] {
        let sources = Set(decisions.splitFirstPages.flatMap { [pages[$0 - 1].source, pages[$0].source] })
        let images = Set(book.images.indices.filter { sources.contains(book.images[$0].source) })
        // One too large to be read (loading the book said so) is replaced by a new one.
        let original = try book.comicInfoPath.flatMap { try book.storage.read($0, atMost: Book.comicInfoLimit) }
        return ComicInfo.markingDoublePages(images, in: original)
    }
}
