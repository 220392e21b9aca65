import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// A book's imposition and layout: every spread, its file name and where each
/// page and blank goes. Made from page headers only, no pixels; render it
/// with ``renderSpread(at:)`` or ``BookRenderer``.
///
/// See <doc:ImpositionRules> and <doc:GeometryAndRounding>.
public struct BookPlan: Sendable {
    /// One output image.
    struct Entry: Hashable, Sendable {
        /// `spread-001.png`, …
        var file: String
        var spread: Spread
        /// Placed rectangles, left to right.
        var slots: [PlacedSlot]
    }

    /// The book this plan is for.
    public let book: Book
    /// What is drawn.
    let options: LayoutOptions
    /// Where each decision came from (`plan --explain`).
    let decisions: Decisions
    /// The pages after deletions: page `n` is `pages[n - 1]`.
    let pages: [Book.PageFile]
    /// Headers of the pages, page `n` at index `n - 1`.
    let headers: [PageHeader]
    let entries: [Entry]
    /// The canvas in pixels.
    let canvas: (width: Int, height: Int)
    /// What ComicInfo said, kept to impose the same pages with other options.
    private let doublePages: Set<Int>
    private let frontCover: Bool
    /// The pages' edges, read for `--pairing auto` and kept to replan without reading pixels again.
    let edges: [PageEdges?]?
    /// Pages drawn while their edges were read, for `render` to take.
    let drawnAhead: DrawnAhead?
    /// How `--split-wide` and `--crop-borders` cut each page they cut, by page
    /// number; with ``cutsAtRender``, the cuts the header alone gives until
    /// the render measures them.
    let cuts: [Int: PageCut]
    /// Set on a plan made to be rendered whose cuts read pixels: each cut
    /// page is measured by the render of its spread, in the decode that draws
    /// it (BookPlan+Cutting).
    let cutsAtRender: CutsAtRender?

    /// The direction used, after `auto` is resolved.
    var direction: ReadingDirection { decisions.direction }

    /// The number of output images.
    public var spreadCount: Int { entries.count }

    /// The number of pages as the plan numbers them, after ComicInfo's deletions.
    package var pageCount: Int { pages.count }

    /// Reads the header of every page that is not deleted and imposes the book.
    /// With `--pairing auto` (``LayoutOptions/pairing``) it also reads every
    /// page's edges at reduced scale, on `jobs` threads, to find split artworks.
    ///
    /// - Parameters:
    ///   - book: a loaded book.
    ///   - options: what to draw; validated here.
    ///   - jobs: pages read at once for automatic pairing; the result does not depend on it.
    /// - Throws: ``MihirakiError``: `.usage` for invalid options (a canvas over
    ///   the pixel limit among them), otherwise naming the first page that
    ///   cannot be read (with automatic pairing, decoded).
    public init(book: Book, options: LayoutOptions, jobs: Int = 1) throws {
        try self.init(book: book, options: options, jobs: jobs, drawingAhead: 0)
    }

    /// ``init(book:options:jobs:)`` for a plan about to be rendered: with
    /// automatic pairing, up to `drawingAhead` bytes of pages are drawn in
    /// the decodes that read their edges (``DrawnAhead``); with
    /// `measuringCutsAtRender`, pages that `--split-wide auto` or
    /// `--crop-borders` measure are measured as their spreads are rendered
    /// (``CutsAtRender``). The plan is the same whatever the budget, and its
    /// text and manifest the same either way.
    package init(book: Book, options: LayoutOptions, jobs: Int, drawingAhead budget: Int,
                 measuringCutsAtRender: Bool = false) throws {
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
            let header = try book.header(page)
            try MihirakiError.wrapping(path: book.displayPath(page)) {
                try PageDecoder.checkPixelLimit(header, maxPixels: options.maxPixels)
            }
            headers.append(header)
        }
        let doublePages = Set(keptImageIndex.indices.filter { book.comicInfo?.pages[keptImageIndex[$0]]?.doublePage == true }
            .map { $0 + 1 })
        let frontCover = keptImageIndex.first.flatMap { book.comicInfo?.pages[$0]?.isFrontCover } ?? false
        let deleted = deletedImages.sorted().filter { $0 < book.images.count }.map { book.images[$0].source }
        // Without edges the plan is the static one: where each page is drawn unless a split moves it.
        var staticPlan = BookPlan(book: book, pages: kept, headers: headers, doublePages: doublePages,
                                  frontCover: frontCover, deleted: deleted, options: options)
        var cutsAtRender: CutsAtRender?
        if options.cutsPages {
            let atRender = measuringCutsAtRender && options.cutsReadPixels
            let cuts = try Self.readCuts(staticPlan, jobs: jobs, measuring: !atRender)
            if atRender { cutsAtRender = CutsAtRender() }
            staticPlan = BookPlan(book: book, pages: kept, headers: headers, doublePages: doublePages, frontCover: frontCover,
                                  deleted: deleted, cuts: cuts, cutsAtRender: cutsAtRender, options: options)
        }
        guard options.pairing == .auto else {
            self = staticPlan
            return
        }
        // A cut page's rectangle is known once it is measured: pairing draws only pages that are not cut.
        let read = try Self.readEdges(staticPlan, jobs: jobs, budget: options.cutsPages ? 0 : budget)
        self.init(book: book, pages: kept, headers: headers, doublePages: doublePages, frontCover: frontCover,
                  deleted: deleted, edges: read.edges, cuts: staticPlan.cuts, cutsAtRender: cutsAtRender,
                  drawnAhead: read.drawn, options: options, jobs: jobs)
    }

    /// A page drawn in the decode that read its edges (``DrawnAhead``): its
    /// edges and image from its number and bytes, or nil for a page left alone.
    typealias DrawingAhead = @Sendable (_ page: Int, _ bytes: [UInt8]) throws -> (edges: PageEdges?, image: PixelBuffer)?

    /// Every page's edges, in page order, and the images `draw` drew on the
    /// way (by page number); the first page that cannot be decoded fails the book.
    static func readEdges(_ book: Book, _ pages: [Book.PageFile], maxPixels: Int, jobs: Int,
                          drawing draw: DrawingAhead? = nil) throws -> (edges: [PageEdges?], drawn: [Int: PixelBuffer]) {
        let results = ParallelMap.run(pages.count, jobs: jobs) { index -> Result<(PageEdges?, PixelBuffer?), MihirakiError> in
            let page = pages[index]
            if TestFault.planned != nil { TestFault.strike(drawing: book.displayPath(page)) }
            do {
                let bytes = try book.read(page)
                if let drawn = try draw?(index + 1, bytes) { return .success(drawn) }
                return .success((try PageEdges.read(bytes, maxPixels: maxPixels), nil))
            } catch {
                return .failure(MihirakiError.from(error, path: book.displayPath(page)))
            }
        }
        var edges: [PageEdges?] = [], drawn: [Int: PixelBuffer] = [:]
        for (index, result) in results.enumerated() {
            let (pageEdges, image) = try result.get()
            edges.append(pageEdges)
            drawn[index + 1] = image
        }
        return (edges, drawn)
    }

    /// The same book imposed with other options, from the headers this plan
    /// already read: no page is opened (the server plans every request this way).
    /// - Throws: ``MihirakiError``: `.usage` for invalid options, `.tooLarge`
    ///   for a page over the new pixel limit.
    package func replanned(with options: LayoutOptions) throws -> BookPlan {
        try options.validate()
        for (page, header) in zip(pages, headers) {
            try MihirakiError.wrapping(path: book.displayPath(page)) {
                try PageDecoder.checkPixelLimit(header, maxPixels: options.maxPixels)
            }
        }
        let edges = options.pairing == .auto ? try self.edges ?? Self.readEdges(book, pages, maxPixels: options.maxPixels, jobs: 1).edges : nil
        var plan = BookPlan(book: book, pages: pages, headers: headers, doublePages: doublePages, frontCover: frontCover,
                            deleted: decisions.deleted, edges: edges, options: options)
        if options.cutsPages {
            // The cuts depend on the canvas and the direction too: measured again unless every input is the same.
            let cuts = plan.cutInputs == cutInputs && cutsAtRender == nil ? self.cuts : try Self.readCuts(plan, jobs: 1, measuring: true)
            plan = BookPlan(book: book, pages: pages, headers: headers, doublePages: doublePages, frontCover: frontCover,
                            deleted: decisions.deleted, edges: edges, cuts: cuts, options: options)
        }
        return plan
    }

    /// The same plan with `cuts` measured: nothing left for the render to measure.
    func with(cuts: [Int: PageCut]) -> BookPlan {
        BookPlan(book: book, pages: pages, headers: headers, doublePages: doublePages, frontCover: frontCover,
                 deleted: decisions.deleted, edges: edges, cuts: cuts, drawnAhead: drawnAhead, options: options)
    }

    /// Imposes a book whose page headers are already known.
    ///
    /// - Parameters:
    ///   - pages: the pages after deletions; `headers` has one entry per page.
    ///   - doublePages: pages ComicInfo marks wide (`DoublePage="true"`).
    ///   - frontCover: ComicInfo marks the first page `FrontCover`.
    ///   - edges: the pages' edges, for `--pairing auto`.
    ///   - jobs: seams measured at once for `--pairing auto`; the result does not depend on it.
    init(book: Book, pages: [Book.PageFile], headers: [PageHeader], doublePages: Set<Int> = [],
         frontCover: Bool = false, deleted: [String] = [], edges: [PageEdges?]? = nil, cuts: [Int: PageCut] = [:],
         cutsAtRender: CutsAtRender? = nil, drawnAhead: DrawnAhead? = nil, options: LayoutOptions, jobs: Int = 1) {
        precondition(headers.count == pages.count, "one header per page")
        self.book = book
        self.options = options
        self.pages = pages
        self.headers = headers
        self.canvas = options.canvas
        self.doublePages = doublePages
        self.frontCover = frontCover
        self.edges = edges
        self.cuts = cuts
        self.cutsAtRender = cutsAtRender
        self.drawnAhead = drawnAhead

        let declared = book.declarations
        let direction: ReadingDirection, directionOrigin: Origin
        switch (options.direction, book.comicInfo?.direction) {
        case (let chosen?, _): (direction, directionOrigin) = (chosen, .flag)
        case (nil, .rightToLeft?): (direction, directionOrigin) = (.rtl, .comicInfo)
        case (nil, .leftToRight?): (direction, directionOrigin) = (.ltr, .comicInfo)
        case (nil, nil):
            if let declared, let chosen = declared.direction {
                (direction, directionOrigin) = (chosen, declared.origin)
            } else {
                (direction, directionOrigin) = (.ltr, .default)
            }
        }
        var cover: CoverMode, coverOrigin: Origin
        if let chosen = options.cover {
            (cover, coverOrigin) = (chosen, .flag)
        } else if frontCover {
            (cover, coverOrigin) = (.alone, .comicInfo)
        } else if let declared, let chosen = declared.cover {
            (cover, coverOrigin) = (chosen, declared.origin)
        } else {
            (cover, coverOrigin) = (.alone, .default)
        }
        var wide: [Int: Origin] = [:]
        for (i, header) in headers.enumerated()
        where Double(header.width) / Double(max(header.height, 1)) > options.wideThreshold {
            wide[i + 1] = .pageSize
        }
        // Two consecutive upright pages ComicInfo marks DoublePage are the two
        // halves of one artwork, kept together like a split; any other page it
        // marks is a spread in one file, wide.
        var declaredPairs: [Int: Origin] = [:]
        var page = 1
        while page < pages.count {
            if doublePages.contains(page), doublePages.contains(page + 1), wide[page] == nil, wide[page + 1] == nil {
                declaredPairs[page] = .comicInfo
                page += 2
            } else {
                page += 1
            }
        }
        // KCC's labels name images; a pair both of whose images are pages, consecutive and upright, is one artwork.
        if let labels = book.spreadLabels {
            let pageOf = Dictionary(pages.enumerated().map { ($1.source, $0 + 1) }, uniquingKeysWith: { first, _ in first })
            for image in labels.firstImages.sorted() where image >= 0 && image + 1 < book.images.count {
                guard let first = pageOf[book.images[image].source], pageOf[book.images[image + 1].source] == first + 1,
                      wide[first] == nil, wide[first + 1] == nil,
                      !declaredPairs.keys.contains(where: { abs($0 - first) <= 1 }) else { continue }
                declaredPairs[first] = .kccLabels
            }
        }
        let declaredSplits = declaredPairs.keys.sorted()
        let declaredPages = Set(declaredSplits.flatMap { [$0, $0 + 1] })
        for page in doublePages where page >= 1 && page <= pages.count && !declaredPages.contains(page) {
            wide[page] = .comicInfo
        }
        var imposition = options.imposition(direction: direction, cover: cover)
        // The book's own page sides, then the flags' blanks on top: flags come after declarations.
        var sides: [Int: PageSide] = [:], declaredSides: [Int: DeclaredSide] = [:]
        if let declared {
            for (index, page) in pages.enumerated() {
                if declared.alone.contains(page.source), wide[index + 1] == nil { wide[index + 1] = declared.origin }
                if let side = declared.sides[page.source], wide[index + 1] == nil { sides[index + 1] = side }
            }
            var declaredOnly = imposition
            declaredOnly.blankBefore = []
            declaredOnly.soloPages = []
            let placed = Imposition.placing(sides: sides, pageCount: headers.count, widePages: Set(wide.keys),
                                            options: declaredOnly, coverIsChosen: coverOrigin != .default)
            if placed.cover != cover { (cover, coverOrigin) = (placed.cover, declared.origin) }
            if sides[1] != nil && coverOrigin == .default { coverOrigin = declared.origin }
            imposition.cover = cover
            imposition.blankBefore.formUnion(placed.blankBefore)
            for (page, side) in sides {
                declaredSides[page] = DeclaredSide(side: side, origin: declared.origin,
                                                   blankBefore: placed.blankBefore.contains(page))
            }
        }
        var seams: [Seam] = []
        if options.pairing == .auto, let edges, edges.count == headers.count {
            // Wide, solo and declared pages are never part of a detected split; the flags and declarations come first.
            seams = SplitDetector.detect(edges, direction: direction, threshold: options.pairingThresholdThousandths,
                                         jobs: jobs) { page in
                wide[page] == nil && !options.soloPages.contains(page) && !declaredPages.contains(page)
            }
        }
        var splitBlanks: [Int: DeclaredSplit] = [:]
        let splits = declaredSplits + seams.filter(\.isSplit).map(\.first)
        if !splits.isEmpty {
            let repair = Imposition.repairs(pageCount: headers.count, widePages: Set(wide.keys), options: imposition,
                                            splits: splits, sides: sides)
            imposition.blankBefore = repair.blankBefore
            for index in seams.indices { seams[index].needsBlank = repair.repaired.contains(seams[index].first) }
            for first in declaredSplits {
                splitBlanks[first] = DeclaredSplit(origin: declaredPairs[first]!, needsBlank: repair.repaired.contains(first))
            }
        }
        decisions = Decisions(direction: direction, directionOrigin: directionOrigin, cover: cover,
                              coverOrigin: coverOrigin, deleted: deleted, wide: wide, sides: declaredSides,
                              declaredSplits: splitBlanks, seams: seams)

        // A FrontCover keeps page 1 alone even if pairing would not (it already
        // is with the default cover, and --cover paired is a flag that wins).
        let spreads = Imposition.spreads(pageCount: headers.count, widePages: Set(wide.keys), options: imposition)
            .flatMap { Self.shown($0, cuts: cuts, direction: direction, options: options) }
        let digits = max(3, String(spreads.count).count)
        entries = spreads.enumerated().map { index, spread in
            let number = String(index + 1)
            let file = "spread-" + String(repeating: "0", count: digits - number.count) + number + "." + options.encoding.format.fileExtension
            let slots = Self.place(spread, cuts: cuts, headers: headers, options: options)
            return Entry(file: file, spread: spread, slots: slots)
        }
    }
}
