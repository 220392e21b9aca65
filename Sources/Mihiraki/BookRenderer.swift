import Foundation
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Renders planned books to folders of PNG spreads plus `manifest.json`.
///
/// All spreads of all books go through one queue served by `jobs` workers, so
/// both cores stay busy whether a run holds one long book or many short ones.
/// Each spread is computed independently, so the files are the same bytes for
/// any number of workers.
public enum BookRenderer {
    /// What rendering one book produced.
    public struct Outcome: Sendable {
        public var book: String
        /// The folder the spreads went to.
        public var folder: String
        /// Spread files written, in file order.
        public var written: [String]
        /// What failed, in file order; the book failed if anything did.
        public var errors: [MihirakiError]
        public var succeeded: Bool { errors.isEmpty }
    }

    /// Counts for a progress display.
    public struct Progress: Sendable {
        public var spreadsDone: Int
        public var spreadsTotal: Int
        public var booksDone: Int
        public var booksTotal: Int
    }

    /// Creates the output folder (and its parents) before any rendering, so an
    /// unwritable location is one error up front rather than one per book.
    /// - Throws: `MihirakiError` naming the folder.
    public static func prepareOutput(_ outputRoot: String) throws {
        try FileSystem.makeDirectories(outputRoot)
    }

    /// Writes every spread of `plan` to `outputRoot/<book>/`, with `plan.options.jobs` workers.
    public static func render(_ plan: BookPlan, into outputRoot: String) -> Outcome {
        render([plan], into: outputRoot, jobs: plan.options.jobs)[0]
    }

    /// Writes the spreads of several books: each to `outputRoot/<book>/`
    /// with, when all its spreads succeed, `manifest.json` (and
    /// `contact-sheet.png` if asked for). Every file is written under a
    /// temporary name and renamed, so no half-written file has a final name.
    ///
    /// - Parameters:
    ///   - plans: the books, in order.
    ///   - jobs: parallel workers.
    ///   - progress: called after each spread, one call at a time.
    /// - Returns: one outcome per plan, in order.
    public static func render(_ plans: [BookPlan], into outputRoot: String, jobs: Int,
                              progress: (@Sendable (Progress) -> Void)? = nil) -> [Outcome] {
        let books = plans.map { plan in
            BookState(plan: plan, folder: outputRoot + "/" + plan.book.outputName)
        }
        var items: [(book: Int, spread: Int)] = []
        for (b, state) in books.enumerated() {
            do {
                try FileSystem.makeDirectories(state.folder)
                FileSystem.removeStaleTemporaries(in: state.folder)
                items += state.plan.entries.indices.map { (b, $0) }
            } catch let error as MihirakiError {
                state.fail(error)
            } catch {}
        }
        // Biggest spreads first (stored pixels to decode), so the run does not
        // end with one worker finishing a wide page while the other idles.
        // Only the order of work changes; every file is the same.
        let cost = items.map { item in
            books[item.book].plan.entries[item.spread].spread.pages.reduce(0) { total, page in
                let header = books[item.book].plan.headers[page - 1]
                return total + header.storedWidth * header.storedHeight
            }
        }
        let work = items.indices.sorted { cost[$0] != cost[$1] ? cost[$0] > cost[$1] : $0 < $1 }.map { items[$0] }
        let counter = ProgressCounter(total: work.count, books: books, report: progress)
        _ = ParallelMap.run(work.count, jobs: jobs) { k in
            counter.spreadDone(completingBook: books[work[k].book].renderSpread(work[k].spread))
        }
        return books.map { $0.outcome() }
    }

    static func encode(_ image: PixelBuffer, compression: PNGEncoder.Compression, path: String) throws -> [UInt8] {
        do {
            return try PNGEncoder.encode(image, compression: compression)
        } catch let error as CodecError {
            throw MihirakiError(.io, path: path, "PNG encoding failed: \(error.message)")
        }
    }
}

/// One book's results as its spreads come back, in slots so the outcome is
/// in file order whatever the thread timing.
final class BookState: @unchecked Sendable {
    let plan: BookPlan
    let folder: String
    private let lock = NSLock()
    private var results: [Result<String, MihirakiError>?]
    private var tiles: [PixelBuffer?]
    private var remaining: Int
    private var finishErrors: [MihirakiError] = []

    init(plan: BookPlan, folder: String) {
        self.plan = plan
        self.folder = folder
        results = Array(repeating: nil, count: plan.entries.count)
        tiles = Array(repeating: nil, count: plan.options.contactSheet ? plan.entries.count : 0)
        remaining = plan.entries.count
    }

    func fail(_ error: MihirakiError) {
        lock.lock(); defer { lock.unlock() }
        finishErrors.append(error)
        remaining = 0
    }

    /// Renders and writes one spread; the worker that completes the book
    /// writes its manifest and contact sheet.
    /// - Returns: whether this spread completed the book.
    @discardableResult
    func renderSpread(_ index: Int) -> Bool {
        let entry = plan.entries[index]
        let path = folder + "/" + entry.file
        var tile: PixelBuffer?
        let result: Result<String, MihirakiError>
        do {
            let image = try plan.renderSpread(at: index)
            if plan.options.contactSheet { tile = ContactSheet.tile(image) }
            let png = try StageProfile.measure(.encode) {
                try BookRenderer.encode(image, compression: plan.options.compression, path: path)
            }
            try StageProfile.measure(.write) { try FileSystem.writeAtomically(png, to: path) }
            result = .success(entry.file)
        } catch let error as MihirakiError {
            result = .failure(error)
        } catch {
            result = .failure(MihirakiError(.io, path: path, "\(error)"))
        }
        lock.lock()
        results[index] = result
        if let tile { tiles[index] = tile }
        remaining -= 1
        let complete = remaining == 0
        lock.unlock()
        if complete { finish() }
        return complete
    }

    private func finish() {
        let failed = results.contains { if case .failure = $0 { return true } else { return false } }
        guard !failed else { return }
        var errors: [MihirakiError] = []
        do {
            try FileSystem.writeAtomically(Array(plan.manifestJSON.utf8), to: folder + "/manifest.json")
            if plan.options.contactSheet {
                let sheet = ContactSheet.make(tiles: tiles.compactMap { $0 },
                                              labels: plan.entries.map(\.spread.description))
                let path = folder + "/contact-sheet.png"
                try FileSystem.writeAtomically(BookRenderer.encode(sheet, compression: plan.options.compression, path: path),
                                               to: path)
            }
        } catch let error as MihirakiError {
            errors.append(error)
        } catch {}
        lock.lock()
        finishErrors += errors
        lock.unlock()
    }

    func outcome() -> BookRenderer.Outcome {
        lock.lock(); defer { lock.unlock() }
        var written: [String] = [], errors: [MihirakiError] = []
        for result in results {
            switch result {
            case .success(let file)?: written.append(file)
            case .failure(let error)?: errors.append(error)
            case nil: break
            }
        }
        return BookRenderer.Outcome(book: plan.book.path, folder: folder, written: written,
                                    errors: errors + finishErrors)
    }

    var isDone: Bool {
        lock.lock(); defer { lock.unlock() }
        return remaining == 0
    }
}

/// Counts finished spreads and books and reports progress, one call at a time.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let booksTotal: Int
    private let report: (@Sendable (BookRenderer.Progress) -> Void)?
    private var done = 0
    private var booksDone: Int

    init(total: Int, books: [BookState], report: (@Sendable (BookRenderer.Progress) -> Void)?) {
        self.total = total
        self.booksTotal = books.count
        self.report = report
        // Books that failed before rendering (or have no spreads) are done already.
        booksDone = books.filter(\.isDone).count
    }

    func spreadDone(completingBook: Bool) {
        guard let report else { return }
        lock.lock(); defer { lock.unlock() }
        done += 1
        if completingBook { booksDone += 1 }
        report(BookRenderer.Progress(spreadsDone: done, spreadsTotal: total, booksDone: booksDone,
                                     booksTotal: booksTotal))
    }
}
