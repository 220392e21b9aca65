import MihirakiCodecs
import MihirakiCore

/// A book's imposition and layout: every spread, its file name and where each
/// page and blank goes. Made from page headers only, no pixels.
public struct BookPlan: Sendable {
    /// One output image.
    public struct Entry: Hashable, Sendable {
        /// `spread-001.png`, …
        public var file: String
        public var spread: Spread
        /// Placed rectangles, left to right.
        public var slots: [PlacedSlot]
    }

    /// Where a layout decision came from, as `plan --explain` shows it.
    public enum Origin: String, Hashable, Sendable {
        case flag
        case comicInfo = "ComicInfo.xml"
        case pageSize = "page size"
        case `default`
    }

    /// The decisions behind the spreads, each with its origin.
    public struct Decisions: Hashable, Sendable {
        public var direction: ReadingDirection
        public var directionOrigin: Origin
        public var cover: CoverMode
        public var coverOrigin: Origin
        /// Images dropped by ComicInfo (`Type="Deleted"`), by source path.
        public var deleted: [String]
        /// Wide pages (numbers after deletions) and why each is wide.
        public var wide: [Int: Origin]
    }

    public let book: Book
    public let options: RenderOptions
    public let decisions: Decisions
    /// The pages after deletions: page `n` is `pages[n - 1]`.
    public let pages: [Book.PageFile]
    /// Headers of the pages, page `n` at index `n - 1`.
    public let headers: [PageHeader]
    public let entries: [Entry]
    /// The canvas in pixels.
    public let canvas: (width: Int, height: Int)

    /// The direction used, after `auto` is resolved.
    public var direction: ReadingDirection { decisions.direction }

    /// Reads the header of every page that is not deleted and imposes the book.
    ///
    /// - Throws: `MihirakiError` naming the first page that cannot be read.
    public init(book: Book, options: RenderOptions) throws {
        try options.validate()
        let deletedImages = Set(book.comicInfo?.pages.values.filter(\.isDeleted).map(\.image) ?? [])
        var kept: [Book.PageFile] = [], keptImageIndex: [Int] = []
        for (index, image) in book.images.enumerated() where !deletedImages.contains(index) {
            kept.append(image)
            keptImageIndex.append(index)
        }
        guard !kept.isEmpty else { throw MihirakiError(.badBook, path: book.path, "every page is deleted by ComicInfo.xml") }
        var headers: [PageHeader] = []
        headers.reserveCapacity(kept.count)
        for page in kept {
            do {
                let header = try book.header(page)
                try PageDecoder.checkPixelLimit(width: header.storedWidth, height: header.storedHeight,
                                                maxPixels: options.maxPixels)
                headers.append(header)
            } catch let error as CodecError {
                throw MihirakiError(.badPage, path: book.displayPath(page), error.message)
            }
        }
        let doublePages = Set(keptImageIndex.indices.filter { book.comicInfo?.pages[keptImageIndex[$0]]?.doublePage == true }
            .map { $0 + 1 })
        let frontCover = keptImageIndex.first.flatMap { book.comicInfo?.pages[$0]?.isFrontCover } ?? false
        self.init(book: book, pages: kept, headers: headers, doublePages: doublePages, frontCover: frontCover,
                  deleted: deletedImages.sorted().filter { $0 < book.images.count }.map { book.images[$0].source },
                  options: options)
    }

    /// Imposes a book whose page headers are already known.
    ///
    /// - Parameters:
    ///   - pages: the pages after deletions; `headers` has one entry per page.
    ///   - doublePages: pages ComicInfo marks wide (`DoublePage="true"`).
    ///   - frontCover: ComicInfo marks the first page `FrontCover`.
    public init(book: Book, pages: [Book.PageFile], headers: [PageHeader], doublePages: Set<Int> = [],
                frontCover: Bool = false, deleted: [String] = [], options: RenderOptions) {
        precondition(headers.count == pages.count, "one header per page")
        self.book = book
        self.options = options
        self.pages = pages
        self.headers = headers
        self.canvas = options.canvas

        let direction: ReadingDirection, directionOrigin: Origin
        switch (options.direction, book.comicInfo?.direction) {
        case (.ltr, _): (direction, directionOrigin) = (.ltr, .flag)
        case (.rtl, _): (direction, directionOrigin) = (.rtl, .flag)
        case (.auto, .rightToLeft?): (direction, directionOrigin) = (.rtl, .comicInfo)
        case (.auto, .leftToRight?): (direction, directionOrigin) = (.ltr, .comicInfo)
        case (.auto, nil): (direction, directionOrigin) = (.ltr, .default)
        }
        let cover: CoverMode, coverOrigin: Origin
        if let chosen = options.cover {
            (cover, coverOrigin) = (chosen, .flag)
        } else {
            (cover, coverOrigin) = (.alone, frontCover ? .comicInfo : .default)
        }
        var wide: [Int: Origin] = [:]
        for (i, header) in headers.enumerated()
        where Double(header.width) / Double(max(header.height, 1)) > options.wideThreshold {
            wide[i + 1] = .pageSize
        }
        for page in doublePages where page >= 1 && page <= pages.count { wide[page] = .comicInfo }
        decisions = Decisions(direction: direction, directionOrigin: directionOrigin, cover: cover,
                              coverOrigin: coverOrigin, deleted: deleted, wide: wide)

        // A FrontCover keeps page 1 alone even if pairing would not (it already
        // is with the default cover, and --cover paired is a flag that wins).
        let imposition = ImpositionOptions(layout: options.layout, direction: direction, cover: cover,
                                           soloPages: options.soloPages, blankBefore: options.blankBefore,
                                           strip: options.strip)
        let spreads = Imposition.spreads(pageCount: headers.count, widePages: Set(wide.keys), options: imposition)
        let digits = max(3, String(spreads.count).count)
        let geometry = options.geometry
        entries = spreads.enumerated().map { index, spread in
            let number = String(index + 1)
            let file = "spread-" + String(repeating: "0", count: digits - number.count) + number + ".png"
            let slots = Layout.place(spread, pageSize: { (headers[$0 - 1].width, headers[$0 - 1].height) },
                                     options: geometry)
            return Entry(file: file, spread: spread, slots: slots)
        }
    }

    /// `plan`'s text form: one line per spread, such as `[x|1]`.
    public var text: String {
        entries.map { $0.spread.description + "\n" }.joined()
    }

    /// `plan --explain`: where each decision came from, one `#` line each.
    public var explanation: String {
        var lines = ["# book \(book.name): \(pages.count) pages, \(entries.count) spreads"]
        lines.append("# direction \(decisions.direction.rawValue) (\(decisions.directionOrigin.rawValue))")
        lines.append("# cover \(decisions.cover.rawValue) (\(decisions.coverOrigin.rawValue))")
        for page in decisions.wide.keys.sorted() {
            lines.append("# page \(page) wide (\(decisions.wide[page]!.rawValue)): \(pages[page - 1].source)")
        }
        for source in decisions.deleted { lines.append("# deleted (ComicInfo.xml): \(source)") }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The manifest document of SPEC §5.
    public var manifestJSON: String {
        let json = JSONWriter()
        json.object {
            json.key("book"); json.string(book.name)
            json.key("canvas")
            json.object(inline: true) {
                json.key("width"); json.number(canvas.width)
                json.key("height"); json.number(canvas.height)
            }
            json.key("layout"); json.string(options.layout.rawValue)
            json.key("direction"); json.string(direction.rawValue)
            json.key("spreads")
            json.array {
                for entry in entries {
                    json.object {
                        json.key("file"); json.string(entry.file)
                        json.key("slots")
                        json.array {
                            for slot in entry.slots {
                                json.object(inline: true) {
                                    json.key("side"); json.string(slot.side.rawValue)
                                    if let page = slot.leaf.pageNumber {
                                        json.key("page"); json.number(page)
                                        json.key("source"); json.string(pages[page - 1].source)
                                    } else {
                                        json.key("page"); json.null()
                                        json.key("blank"); json.bool(true)
                                    }
                                    let r = slot.rect
                                    json.key("rect"); json.numbers([r.x, r.y, r.width, r.height])
                                }
                            }
                        }
                    }
                }
            }
        }
        return json.output + "\n"
    }
}
