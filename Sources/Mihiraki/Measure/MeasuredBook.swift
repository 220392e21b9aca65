import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Everything read of a book's pages that a ``SpreadPlan`` is made from:
/// the measuring pass's result, one value per page (its header, its edges,
/// its cut) plus what `ComicInfo.xml` says of the pages. No pixels.
///
/// Measuring runs first and only once: a plan is a pure function of these
/// facts and the options, and a plan with other options reuses every fact
/// whose inputs are the same (``SpreadPlan/replanned(with:)``).
struct MeasuredBook: Sendable {
    let book: Book
    /// The pages after deletions: page `n` is `pages[n - 1]`.
    let pages: [Book.PageFile]
    /// Headers of the pages, page `n` at index `n - 1`.
    let headers: [PageHeader]
    /// Pages ComicInfo marks wide (`DoublePage="true"`), by number after deletions.
    let doublePages: Set<Int>
    /// ComicInfo marks the first page `FrontCover`.
    let frontCover: Bool
    /// Images ComicInfo deletes, by source path.
    let deleted: [String]
    /// Every page's edges, in page order, once `--pairing auto` has read them.
    var edges: [PageEdges?]?
    /// Cut pages' measured cuts, by page number, each with what it was measured for.
    var cuts: [Int: MeasuredCut] = [:]

    /// Reads the header of every page ComicInfo does not delete, each checked against `maxPixels`.
    /// - Throws: ``MihirakiError`` naming the first page that cannot be read, or `.badBook` when every page is deleted.
    init(headersOf book: Book, maxPixels: Int) throws {
        let comicInfo = book.comicInfo
        let deletedImages = Set(comicInfo?.pages.values.filter(\.isDeleted).map(\.image) ?? [])
        var kept: [Book.PageFile] = [], keptImageIndex: [Int] = []
        for (index, image) in book.images.enumerated() where !deletedImages.contains(index) {
            kept.append(image)
            keptImageIndex.append(index)
        }
        guard !kept.isEmpty else { throw MihirakiError(.badBook, path: book.path, "every page is deleted by ComicInfo.xml") }
        var headers: [PageHeader] = []
        headers.reserveCapacity(kept.count)
        for page in kept {
            let header = try book.header(page)
            try Self.checkPixelLimit(header, maxPixels, path: book.displayPath(page))
            headers.append(header)
        }
        self.book = book
        self.pages = kept
        self.headers = headers
        doublePages = Set(keptImageIndex.indices.filter { comicInfo?.pages[keptImageIndex[$0]]?.doublePage == true }.map { $0 + 1 })
        frontCover = keptImageIndex.first.flatMap { comicInfo?.pages[$0]?.isFrontCover } ?? false
        deleted = deletedImages.sorted().filter { $0 < book.images.count }.map { book.images[$0].source }
    }

    /// Fails on the first page over `maxPixels`, naming it.
    func checkPixelLimit(_ maxPixels: Int) throws {
        for (page, header) in zip(pages, headers) { try Self.checkPixelLimit(header, maxPixels, path: book.displayPath(page)) }
    }

    private static func checkPixelLimit(_ header: PageHeader, _ maxPixels: Int, path: String) throws {
        try MihirakiError.wrapping(path: path) { try PageDecoder.checkPixelLimit(header, maxPixels: maxPixels) }
    }

    /// Page numbers in the order to decode them on several threads: the
    /// largest stored page first, so the last page a thread takes is a small
    /// one and the pass does not end with one thread decoding alone.
    func largestFirst(_ numbers: some Collection<Int>) -> [Int] {
        func size(_ number: Int) -> Int { headers[number - 1].storedWidth * headers[number - 1].storedHeight }
        return numbers.sorted { size($0) != size($1) ? size($0) > size($1) : $0 < $1 }
    }

    /// Page `number`'s path as messages show it.
    func displayPath(page number: Int) -> String { book.displayPath(pages[number - 1]) }
}

/// A page's cut as measured, with what it was measured for: a plan whose
/// options ask the same of the page takes it as it is.
struct MeasuredCut: Sendable {
    var request: CutRequest
    var cut: PageCut
    /// Why the page could not be measured (its pixels are damaged), or nil:
    /// the plan keeps the cut its header gives, and the render fails the page's spread.
    var failure: MihirakiError?
}

/// Everything a page's measured cut depends on besides the page: the size
/// it is decoded at and what is asked of it.
struct CutRequest: Hashable, Sendable {
    var decodeSize: Size
    var split: SplitWideMode?
    var direction: ReadingDirection
    var cropLimit: Int?
    var colorManage: Bool
    var maxPixels: Int

    struct Size: Hashable, Sendable {
        var width: Int
        var height: Int
    }
}
