import MihirakiCore

extension BookPlan {
    /// The book's `ComicInfo.xml` (or a new one) with both pages of every
    /// split, found or declared, marked `DoublePage="true"` (`render --write-comicinfo`).
    func comicInfoMarkingSplits() throws -> [UInt8] {
        let sources = Set(decisions.splitFirstPages.flatMap { [pages[$0 - 1].source, pages[$0].source] })
        let images = Set(book.images.indices.filter { sources.contains(book.images[$0].source) })
        let original = try book.comicInfoPath.flatMap { path -> [UInt8]? in
            // One too large to be read (loading the book said so) is replaced by a new one.
            guard try book.storage.readPrefix(path, count: Book.comicInfoLimit + 1).count <= Book.comicInfoLimit else { return nil }
            return try book.storage.read(path)
        }
        return ComicInfo.markingDoublePages(images, in: original)
    }
}
