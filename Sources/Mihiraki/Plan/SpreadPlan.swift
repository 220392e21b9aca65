import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// A book's imposition and layout: every spread, its file name and where each
/// page and blank goes. A value made from the book's measured facts (the
/// pages' headers, and with the options that need them their edges and
/// cuts) and the options, holding no pixels; render it with
/// ``renderSpread(at:)`` or ``BookRenderer``.
///
/// Planning runs one way: measure, then plan, then render. Whatever reads
/// pixels does so before the plan is made, the plan is a
/// pure function of those facts, and a renderer only reads it.
///
/// See <doc:ImpositionRules> and <doc:GeometryAndRounding>.
public struct SpreadPlan: Sendable {
    /// One output image.
    struct Entry: Hashable, Sendable {
        /// `spread-001.png`, …
        var file: String
        var spread: Spread
        /// Placed rectangles, left to right.
        var slots: [PlacedSlot]
    }

    /// What the plan is made from.
    let facts: MeasuredBook
    /// What is drawn.
    let options: LayoutOptions
    /// Where each decision came from (`plan --explain`).
    let decisions: Decisions
    let entries: [Entry]
    /// The canvas in pixels.
    let canvas: (width: Int, height: Int)
    /// What `--split-wide` and `--crop-borders` ask of each page they cut, by page number.
    let cutRequests: [Int: CutRequest]
    /// How they cut each page, by page number.
    let cuts: [Int: PageCut]

    /// The book this plan is for.
    public var book: Book { facts.book }
    /// The pages after deletions: page `n` is `pages[n - 1]`.
    var pages: [Book.PageFile] { facts.pages }
    /// Headers of the pages, page `n` at index `n - 1`.
    var headers: [PageHeader] { facts.headers }

    /// The direction used, after `auto` is resolved.
    var direction: ReadingDirection { decisions.direction }

    /// The number of output images.
    public var spreadCount: Int { entries.count }

    /// The number of pages as the plan numbers them, after ComicInfo's deletions.
    package var pageCount: Int { pages.count }

    /// Reads the header of every page that is not deleted and imposes the book.
    /// With `--pairing auto` (``LayoutOptions/pairing``) it also reads every
    /// page's edges at reduced scale, on `jobs` threads, to find split
    /// artworks; with `--split-wide auto` or `--crop-borders` it measures the
    /// pages they cut.
    ///
    /// - Parameters:
    ///   - book: a loaded book.
    ///   - options: what to draw; validated here.
    ///   - jobs: pages read at once for automatic pairing; the result does not depend on it.
    /// - Throws: ``MihirakiError``: `.usage` for invalid options (a canvas over
    ///   the pixel limit among them), otherwise naming the first page that
    ///   cannot be read (with automatic pairing or a cut that reads pixels, decoded).
    public init(book: Book, options: LayoutOptions, jobs: Int = 1) throws {
        self = try Self.measuring(book: book, options: options, jobs: jobs, keepingIn: nil).requiringEveryPageMeasured()
    }

    /// ``init(book:options:jobs:)`` for a plan about to be rendered: pages
    /// the measuring decodes are kept in `cache`, within its budget, for the
    /// render to draw from (``PageCache``). The plan is the same either way,
    /// except that a cut page that cannot be decoded does not fail the book:
    /// its spread fails when drawn, and the others are written.
    package static func measuring(book: Book, options: LayoutOptions, jobs: Int, keepingIn cache: PageCache?) throws -> SpreadPlan {
        try options.validate()
        return try measuring(MeasuredBook(headersOf: book, maxPixels: options.maxPixels), options: options, jobs: jobs,
                             keepingIn: cache)
    }

    /// The same book imposed with other options, from the facts this plan
    /// already measured: nothing measured again that the options do not
    /// change (the server plans every request this way; with the headers
    /// alone, no page is opened).
    /// - Throws: ``MihirakiError``: `.usage` for invalid options, `.tooLarge`
    ///   for a page over the new pixel limit, or naming a page that cannot be decoded for edges.
    package func replanned(with options: LayoutOptions, jobs: Int = 1) throws -> SpreadPlan {
        try options.validate()
        try facts.checkPixelLimit(options.maxPixels)
        return try Self.measuring(facts, options: options, jobs: jobs, keepingIn: nil).requiringEveryPageMeasured()
    }

    /// This plan, or the failure of the first page whose cut could not be measured.
    private func requiringEveryPageMeasured() throws -> SpreadPlan {
        for number in cutRequests.keys.sorted() {
            if let failure = facts.cuts[number]?.failure { throw failure }
        }
        return self
    }

    /// The plan of `facts` under `options`, measuring first what the options
    /// need and `facts` lacks: the cut pages (which and how depends on the
    /// headers alone), then the pages' edges.
    private static func measuring(_ facts: MeasuredBook, options: LayoutOptions, jobs: Int,
                                  keepingIn cache: PageCache?) throws -> SpreadPlan {
        var facts = facts
        // Which pages are cut, and the direction, never depend on the edges: planned without them.
        var unpaired = facts
        unpaired.edges = nil
        var plan = SpreadPlan(unpaired, options: options)
        if options.cutsPages && options.cutsReadPixels {
            facts.cuts = facts.measuringCuts(plan.cutRequests, jobs: jobs, keepingIn: cache)
            unpaired.cuts = facts.cuts
            plan = SpreadPlan(unpaired, options: options)
        }
        guard options.pairing == .auto else { return facts.edges == nil ? plan : SpreadPlan(facts, options: options) }
        if facts.edges == nil {
            // A cut page's rectangle is known once it is measured: pairing draws only pages that are not cut.
            let drawing = options.cutsPages ? nil : cache.map { PageCache.Drawing(plan, into: $0) }
            facts.edges = try facts.readingEdges(maxPixels: options.maxPixels, jobs: jobs, drawing: drawing)
        }
        return SpreadPlan(facts, options: options, jobs: jobs)
    }

    /// Imposes a book from its measured facts: a pure function of `facts` and `options`.
    ///
    /// - Parameters:
    ///   - facts: the pages' headers, and with the options that need them their edges and cuts.
    ///     A cut page `facts` has not measured for these options is cut as its header alone gives.
    ///   - jobs: seams measured at once for `--pairing auto`; the result does not depend on it.
    init(_ facts: MeasuredBook, options: LayoutOptions, jobs: Int = 1) {
        self.facts = facts
        self.options = options
        self.canvas = options.canvas
        let book = facts.book, pages = facts.pages, headers = facts.headers
        let doublePages = facts.doublePages, frontCover = facts.frontCover, edges = facts.edges

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
                              coverOrigin: coverOrigin, deleted: facts.deleted, wide: wide, sides: declaredSides,
                              declaredSplits: splitBlanks, seams: seams)
        cutRequests = Self.cutRequests(headers, wide: Set(wide.keys), direction: direction, options: options)
        let cuts = Self.cuts(facts, cutRequests, direction: direction)
        self.cuts = cuts

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

/// ``SpreadPlan``'s former name, kept so code written against it still builds.
@available(*, deprecated, renamed: "SpreadPlan")
public typealias BookPlan = SpreadPlan
