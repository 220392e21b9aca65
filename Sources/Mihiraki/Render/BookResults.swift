import Foundation
import MihirakiRaster

/// One book's results as its spreads come back from the workers, kept in
/// slots so the outcome is in file order whatever the thread timing. The
/// worker that records the last spread has the book finished.
final class BookResults: @unchecked Sendable {
    let plan: BookPlan
    let writer: BookWriter
    private let lock = NSLock()
    private var results: [Result<String, MihirakiError>?]
    private var tiles: [PixelBuffer?]
    private var remaining: Int
    private var finishErrors: [MihirakiError] = []
    private var skipped = false

    init(plan: BookPlan, writer: BookWriter) {
        self.plan = plan
        self.writer = writer
        results = Array(repeating: nil, count: plan.entries.count)
        tiles = Array(repeating: nil, count: writer.options.contactSheet ? plan.entries.count : 0)
        remaining = plan.entries.count
    }

    /// The book failed before any spread was rendered.
    func fail(_ error: MihirakiError) {
        lock.lock(); defer { lock.unlock() }
        finishErrors.append(error)
        remaining = 0
    }

    /// The book is up to date: nothing to render or write.
    func skip() {
        lock.lock(); defer { lock.unlock() }
        skipped = true
        remaining = 0
    }

    /// Renders and writes spread `index`; the worker that completes the book
    /// writes its manifest and contact sheet.
    /// - Returns: whether this spread completed the book.
    func renderSpread(_ index: Int) -> Bool {
        let (result, tile) = writer.writeSpread(index)
        lock.lock()
        results[index] = result
        if let tile { tiles[index] = tile }
        remaining -= 1
        let complete = remaining == 0
        let succeeded = !results.contains { if case .failure = $0 { true } else { false } }
        let finishedTiles = complete ? tiles.compactMap { $0 } : []
        lock.unlock()
        if complete && succeeded {
            do {
                try writer.finish(tiles: finishedTiles)
            } catch {
                lock.lock()
                finishErrors.append(MihirakiError.from(error, path: writer.folder))
                lock.unlock()
            }
        }
        return complete
    }

    var isDone: Bool {
        lock.lock(); defer { lock.unlock() }
        return remaining == 0
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
        return BookRenderer.Outcome(book: plan.book.path, folder: writer.folder, written: written,
                                    errors: errors + finishErrors, skipped: skipped)
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

    init(total: Int, books: [BookResults], report: (@Sendable (BookRenderer.Progress) -> Void)?) {
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
