import Foundation
import MihirakiRaster
import Synchronization

/// One book's results as its spreads come back from the workers, kept in
/// slots so the outcome is in file order whatever the thread timing. The
/// worker that records the last spread has the book finished.
final class BookResults: Sendable {
    let plan: SpreadPlan
    let writer: BookWriter
    private struct State {
        var results: [Result<String, MihirakiError>?]
        var tiles: [PixelBuffer?]
        var remaining: Int
        var finishErrors: [MihirakiError] = []
        var skipped = false
        /// A spread could not be written (a full disk, a folder made
        /// read-only): the book's remaining spreads are not rendered, and
        /// the first such error is the book's one line about it.
        var writeError: MihirakiError?
    }
    private let state: Mutex<State>

    init(plan: SpreadPlan, writer: BookWriter) {
        self.plan = plan
        self.writer = writer
        state = Mutex(State(results: Array(repeating: nil, count: plan.entries.count),
                            tiles: Array(repeating: nil, count: writer.options.contactSheet ? plan.entries.count : 0),
                            remaining: plan.entries.count))
    }

    /// The book failed before any spread was rendered.
    func fail(_ error: MihirakiError) {
        state.withLock {
            $0.finishErrors.append(error)
            $0.remaining = 0
        }
    }

    /// The book is up to date: nothing to render or write.
    func skip() {
        state.withLock {
            $0.skipped = true
            $0.remaining = 0
        }
    }

    /// Renders and writes spread `index`; the worker that completes the book
    /// writes its manifest and contact sheet.
    /// - Returns: whether this spread completed the book.
    func renderSpread(_ index: Int) -> Bool {
        let stopped = state.withLock { $0.writeError != nil }
        let (result, tile, writeFailed) = stopped ? (nil, nil, false) : writer.writeSpread(index)
        let (complete, succeeded, finishedTiles) = state.withLock { state in
            if writeFailed, case .failure(let error)? = result {
                if state.writeError == nil { state.writeError = error }
            } else {
                state.results[index] = result
            }
            if let tile { state.tiles[index] = tile }
            state.remaining -= 1
            let complete = state.remaining == 0
            let succeeded = state.writeError == nil && !state.results.contains { if case .failure = $0 { true } else { false } }
            return (complete, succeeded, complete ? state.tiles.compactMap { $0 } : [])
        }
        if complete && succeeded {
            do {
                try writer.finish(tiles: finishedTiles)
            } catch {
                state.withLock { $0.finishErrors.append(MihirakiError.from(error, path: writer.folder)) }
            }
        }
        return complete
    }

    var isDone: Bool { state.withLock { $0.remaining == 0 } }

    func outcome() -> BookRenderer.Outcome {
        let (results, writeError, skipped, finishErrors) = state.withLock {
            ($0.results, $0.writeError, $0.skipped, $0.finishErrors)
        }
        var written: [String] = [], errors: [MihirakiError] = []
        for result in results {
            switch result {
            case .success(let file)?: written.append(file)
            case .failure(let error)?: errors.append(error)
            case nil: break
            }
        }
        return BookRenderer.Outcome(book: plan.book.path, folder: writer.folder, written: written,
                                    errors: Self.oneLine(errors) + (writeError.map { [Self.stopped($0)] } ?? []) + finishErrors,
                                    skipped: skipped)
    }
}

extension BookResults {
    /// A book's spread errors as its one line: the first (in file order,
    /// naming its page and why), and how many more spreads failed (a
    /// spread stops at its first page that fails). A PDF whose every page
    /// is damaged is one line, not one a page.
    static func oneLine(_ errors: [MihirakiError]) -> [MihirakiError] {
        guard let first = errors.first else { return [] }
        let more = errors.count - 1
        guard more > 0 else { return [first] }
        return [MihirakiError(first.code, path: first.path,
                              first.message + " (and \(more) more spread\(more == 1 ? "" : "s") of this book failed)",
                              underlying: first.underlying)]
    }
}

extension BookResults {
    /// The one line of a book stopped by a write error.
    static func stopped(_ error: MihirakiError) -> MihirakiError {
        MihirakiError(error.code, path: error.path, error.message + "; the rest of this book was not written",
                      underlying: error.underlying)
    }
}

/// Counts finished spreads and books and reports progress, one call at a time.
final class ProgressCounter: Sendable {
    private let total: Int
    private let booksTotal: Int
    private let report: (@Sendable (BookRenderer.Progress) -> Void)?
    private let counts: Mutex<(spreads: Int, books: Int)>

    init(total: Int, books: [BookResults], report: (@Sendable (BookRenderer.Progress) -> Void)?) {
        self.total = total
        self.booksTotal = books.count
        self.report = report
        // Books that failed before rendering (or have no spreads) are done already.
        counts = Mutex((0, books.filter(\.isDone).count))
    }

    func spreadDone(completingBook: Bool) {
        guard let report else { return }
        counts.withLock { counts in
            counts.spreads += 1
            if completingBook { counts.books += 1 }
            report(BookRenderer.Progress(spreadsDone: counts.spreads, spreadsTotal: total, booksDone: counts.books,
                                         booksTotal: booksTotal))
        }
    }
}
