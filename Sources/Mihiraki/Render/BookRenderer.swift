import MihirakiCore
/// Renders planned books to folders of spread files (in the plans' format)
/// plus `manifest.json`.
///
/// All spreads of all books go through one queue served by
/// ``RunOptions/jobs`` workers, so both cores stay busy whether a run holds
/// one long book or many short ones. Each spread is computed independently,
/// so the files are the same bytes for any number of workers.
public enum BookRenderer {
    /// What rendering one book produced.
    public struct Outcome: Sendable {
        /// The book's path.
        public var book: String
        /// The folder the spreads went to.
        public var folder: String
        /// Spread files written, in file order.
        public var written: [String]
        /// What failed, in file order; the book failed if anything did.
        public var errors: [MihirakiError]
        /// Whether every file of the book was written (or, skipped, is there).
        public var succeeded: Bool { errors.isEmpty }
        /// The book was up to date (``RunOptions/incremental``) and nothing was written.
        public var skipped = false
    }

    /// Counts for a progress display.
    public struct Progress: Sendable {
        /// Spreads finished, written or failed.
        public var spreadsDone: Int
        /// Spreads in the whole run.
        public var spreadsTotal: Int
        /// Books whose every spread is finished.
        public var booksDone: Int
        /// Books in the whole run.
        public var booksTotal: Int
    }

    /// Writes the spreads of several books: each to `outputRoot/<book>/`
    /// with, when all its spreads succeed, `manifest.json` (and
    /// the contact sheet if asked for). Every file is written under a
    /// temporary name and renamed, so no half-written file has a final name.
    /// A book that fails does not stop the others.
    ///
    /// - Parameters:
    ///   - plans: the books, in order.
    ///   - outputRoot: the folder that receives one sub-folder per book.
    ///   - options: workers, contact sheets, incremental runs.
    ///   - progress: called after each spread, one call at a time.
    /// - Returns: one outcome per plan, in order. A book whose output name an
    ///   earlier book already has is refused in its outcome, not rendered.
    /// - Throws: ``MihirakiError`` before anything is rendered: `.usage` for
    ///   invalid options, an output folder inside a book, or a contact sheet
    ///   over the pixel limit; `.io` when the output folder cannot be created.
    public static func render(_ plans: [SpreadPlan], into outputRoot: String, options: RunOptions = RunOptions(),
                              progress: (@Sendable (Progress) -> Void)? = nil) throws -> [Outcome] {
        try render(plans, into: outputRoot, options: options, observer: nil, progress: progress)
    }

    /// ``render(_:into:options:progress:)-([SpreadPlan],_,_,_)`` for the books ``plan(_:options:run:skippingUpToDateIn:)``
    /// planned, drawing from the pages their measuring kept (``PlannedBooks``).
    public static func render(_ planned: PlannedBooks, into outputRoot: String, options: RunOptions = RunOptions(),
                              progress: (@Sendable (Progress) -> Void)? = nil) throws -> [Outcome] {
        try render(planned.plans, into: outputRoot, options: options, cache: planned.cache, observer: nil, progress: progress)
    }

    /// What a supervisor of the rendering process is told as it happens
    /// (see `mihiraki render`'s supervisor): enough to name the book and the
    /// spread that was being drawn if the process dies.
    package enum Event: Sendable {
        /// Spread `spread` (0-based) of plan `book` is about to be drawn.
        case spreadStarted(book: Int, spread: Int)
        /// Plan `book` is finished: written, failed or skipped.
        case bookFinished(book: Int, Outcome)
    }

    /// ``render(_:into:options:progress:)-([SpreadPlan],_,_,_)``, telling `observer` where the
    /// time goes and `events` what is being drawn.
    package static func render(_ plans: [SpreadPlan], into outputRoot: String, options: RunOptions,
                               cache: PageCache? = nil, observer: (any RenderObserver)?,
                               progress: (@Sendable (Progress) -> Void)?,
                               events: (@Sendable (Event) -> Void)? = nil) throws -> [Outcome] {
        try options.validate()
        if options.contactSheet {
            for plan in plans where plan.spreadCount > 0 {
                let size = ContactSheet.size(spreads: plan.spreadCount, canvas: plan.canvas)
                let what = "the contact sheet of \(plan.book.name)"
                try LayoutOptions.checkCanvas(width: size.width, height: size.height, maxPixels: plan.options.maxPixels, what: what)
                try LayoutOptions.checkMemory(plan.options.encoding, width: size.width, height: size.height, seeThrough: false,
                                              what: what + " (\(size.width)x\(size.height))")
            }
        }
        // No book to write (all failed to load, say): nothing is created.
        if plans.isEmpty { try checkOutput(outputRoot, books: []) } else {
            try prepareOutput(outputRoot, books: plans.map(\.book.path))
        }
        let timer = StageTimer(observer: observer)
        let refused = duplicateNameErrors(plans)
        // An incremental run takes every book's fingerprint first (a pass
        // over its bytes, or a ZIP's stored checksums), so it can skip the
        // books it already wrote. Otherwise a book's fingerprint is taken
        // when its manifest is written, from the checksums of the reads
        // that drew its pages: each page is read once.
        let fingerprints: [Result<String, any Error>?] = options.incremental
            ? ParallelMap.run(plans.count, jobs: options.jobs) { index in Result { try Fingerprint.of(plans[index], run: options) } }
            : Array(repeating: nil, count: plans.count)
        let books = plans.indices.map { index in
            let plan = plans[index]
            let writer = BookWriter(plan: plan, cache: cache, folder: outputRoot + "/" + plan.book.outputName, options: options,
                                    timer: timer, fingerprint: try? fingerprints[index]?.get())
            let state = BookResults(plan: plan, writer: writer)
            if let error = refused[index] {
                state.fail(error)
            } else if case .failure(let error)? = fingerprints[index] {
                state.fail(MihirakiError.from(error, path: plan.book.path))
            }
            return state
        }
        var items: [(book: Int, spread: Int)] = []
        for (b, state) in books.enumerated() where !state.isDone {
            if options.incremental && state.writer.isUpToDate() {
                state.skip()
                continue
            }
            do {
                try state.writer.prepareFolder()
                items += state.plan.entries.indices.map { (b, $0) }
            } catch {
                state.fail(MihirakiError.from(error, path: state.writer.folder))
            }
        }
        if let events {
            for (b, state) in books.enumerated() where state.isDone { events(.bookFinished(book: b, state.outcome())) }
        }
        let work = largestFirst(items, books: books)
        let counter = ProgressCounter(total: work.count, books: books, report: progress)
        _ = ParallelMap.run(work.count, jobs: options.jobs) { k in
            let (b, spread) = work[k]
            events?(.spreadStarted(book: b, spread: spread))
            let completed = books[b].renderSpread(spread)
            if completed { events?(.bookFinished(book: b, books[b].outcome())) }
            counter.spreadDone(completingBook: completed)
        }
        return books.map { $0.outcome() }
    }

    /// Biggest spreads first (stored pixels to decode), so the run does not
    /// end with one worker finishing a wide page while the other idles. Only
    /// the order of work changes; every file is the same.
    private static func largestFirst(_ items: [(book: Int, spread: Int)], books: [BookResults]) -> [(book: Int, spread: Int)] {
        let cost = items.map { item in
            let plan = books[item.book].plan
            return plan.entries[item.spread].spread.pages.reduce(0) { total, page in
                total + plan.headers[page - 1].storedWidth * plan.headers[page - 1].storedHeight
            }
        }
        return items.indices.sorted { cost[$0] != cost[$1] ? cost[$0] > cost[$1] : $0 < $1 }.map { items[$0] }
    }
}
