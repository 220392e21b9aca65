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

    public let book: Book
    public let options: RenderOptions
    /// The direction used, after `auto` is resolved.
    public let direction: ReadingDirection
    /// Headers of the pages, page `n` at index `n - 1`.
    public let headers: [PageHeader]
    public let entries: [Entry]

    /// Reads every page's header and imposes the book.
    ///
    /// - Throws: `MihirakiError` naming the first page that cannot be read.
    public init(book: Book, options: RenderOptions) throws {
        try options.validate()
        var headers: [PageHeader] = []
        headers.reserveCapacity(book.pages.count)
        for page in book.pages {
            let bytes = try FileSystem.read(page.path)
            do {
                let header = try PageDecoder.header(of: bytes)
                try PageDecoder.checkPixelLimit(width: header.storedWidth, height: header.storedHeight,
                                                maxPixels: options.maxPixels)
                headers.append(header)
            } catch let error as CodecError {
                throw MihirakiError(.badPage, path: page.path, error.message)
            }
        }
        self.init(book: book, headers: headers, options: options)
    }

    /// Imposes a book whose page headers are already known.
    public init(book: Book, headers: [PageHeader], options: RenderOptions) {
        precondition(headers.count == book.pages.count, "one header per page")
        self.book = book
        self.options = options
        let direction: ReadingDirection = options.direction == .rtl ? .rtl : .ltr
        self.direction = direction
        self.headers = headers
        let wide = Set(headers.indices.filter { i in
            Double(headers[i].width) / Double(max(headers[i].height, 1)) > options.wideThreshold
        }.map { $0 + 1 })
        let imposition = ImpositionOptions(layout: options.layout, direction: direction, cover: options.cover,
                                           soloPages: options.soloPages, blankBefore: options.blankBefore,
                                           strip: options.strip)
        let spreads = Imposition.spreads(pageCount: headers.count, widePages: wide, options: imposition)
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

    /// The manifest document of SPEC §5.
    public var manifestJSON: String {
        let json = JSONWriter()
        json.object {
            json.key("book"); json.string(book.name)
            json.key("canvas")
            json.object(inline: true) {
                json.key("width"); json.number(options.canvasWidth)
                json.key("height"); json.number(options.canvasHeight)
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
                                        json.key("source"); json.string(book.pages[page - 1].source)
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
