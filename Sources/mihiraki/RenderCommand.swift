import ArgumentParser
import Foundation
import Mihiraki
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write the spreads of one or more books as \(HelpNames.spreadFormats) files.",
        discussion: """
        Each BOOK (a folder of page images or a book file (\(BookKind.extensionList))) goes to \
        OUTDIR/<book name>/spread-001.png (or \(HelpNames.otherSpreadExtensions) with --format), … and \
        OUTDIR/<book name>/manifest.json. \
        A book that fails is reported and the others are still written; the exit status is then 1.
        """)

    @Argument(help: "Books: folders of page images or book files (\(BookKind.extensionList)).")
    var books: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder that receives one sub-folder per book.", valueName: "OUTDIR"))
    var output: String?

    @Option(help: ArgumentHelp("Render in memory and compare with the golden spreads and manifest in GOLDEN/<book>/ instead of writing.", valueName: "GOLDEN"))
    var check: String?

    /// What `--update` rewrites: every golden, or only those that differ.
    enum Update: String, ExpressibleByArgument, CaseIterable {
        case all, changed
    }

    @Option(help: ArgumentHelp("With --check: rewrite the goldens from this render; 'changed' rewrites only the files whose bytes differ, leaving the others' bytes and times alone (alone: all).",
                               valueName: "all|changed"))
    var update: Update?

    @Option(help: ArgumentHelp("With --check: write diff pictures to DIR/<book>/.", valueName: "DIR"))
    var diff: String?

    @OptionGroup var layout: LayoutFlags

    @OptionGroup(title: "With --check") var reports: ReportFlags

    @Option(help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .customLong("contact-sheet"), help: "Also write OUTDIR/<book>/contact-sheet.png (in the spreads' format), a labelled grid of all spreads.")
    var contactSheet = false

    @Flag(name: .customLong("write-comicinfo"), help: "Also write OUTDIR/<book>/ComicInfo.xml: the book's own (or a new one) with both pages of every split artwork marked DoublePage=\"true\", for a library's reader.")
    var writeComicInfo = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors: no progress line, no summary.")
    var quiet = false

    @Option(help: ArgumentHelp("Render only the books of shard K of N (1 ≤ K ≤ N), chosen by a stable hash of each book's output name.", valueName: "K/N"))
    var shard: String?

    @Flag(help: "Skip books whose manifest.json records the same input fingerprint and whose files are all there; remove spreads a re-rendered book no longer has.")
    var incremental = false

    func run() throws {
        let options = try layout.layoutOptions()
        var run = RunOptions()
        run.jobs = jobs
        run.contactSheet = contactSheet
        run.writeComicInfo = writeComicInfo
        run.incremental = incremental
        run.keepUnchangedFiles = update == .changed
        try run.validate()
        guard !books.isEmpty else { throw ValidationError("name at least one book") }
        let chosen = try ShardFlag.books(books, shard: shard)
        // Comparison flags mean nothing to a plain render: refused, not ignored.
        if check == nil || update != nil {
            let given = [("--diff", diff != nil), ("--report", reports.report != nil), ("--junit", reports.junit != nil),
                         ("--ignore", !reports.ignore.isEmpty), ("--mask", reports.mask != nil)]
            if let flag = given.first(where: \.1)?.0 {
                throw ValidationError("\(flag) goes with --check GOLDEN (without --update)")
            }
        }
        let destination: String
        switch (output, check, update != nil) {
        case (let out?, nil, false): destination = out
        case (nil, let golden?, true): destination = golden
        case (nil, let golden?, false): return try runCheck(golden: golden, options: options)
        case (_, nil, true): throw ValidationError("--update goes with --check GOLDEN")
        case (nil, nil, _): throw ValidationError("missing -o OUTDIR (or --check GOLDEN)")
        default: throw ValidationError("use either -o OUTDIR or --check GOLDEN, not both")
        }
        // Refused before any book is read, creating nothing: an output inside a
        // book, or one that cannot be created. The renderer creates it.
        try BookRenderer.checkOutput(destination, books: books)

        if let child = RenderSupervisor.Child.current {
            guard SupervisedChild.endWithSupervisor() else { throw ExitCode(1) }
            return try renderSupervised(child, chosen: chosen, options: options, run: run, into: destination)
        }
        let start = Date()
        guard let totals = RenderSupervisor.supervise(names: chosen) else { throw ExitCode(2) }
        if !quiet {
            let seconds = Date().timeIntervalSince(start)
            let taken = shard.map { " (shard \($0): \(chosen.count) of \(books.count))" } ?? ""
            let summary = "\(chosen.count) book\(chosen.count == 1 ? "" : "s")\(taken), "
                + "\(totals.written) spread\(totals.written == 1 ? "" : "s") written to \(destination), "
                + (incremental ? "\(totals.upToDate) up to date, " : "")
                + "\(totals.failed) failed, \(String(format: "%.2f", seconds)) s"
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        }
        if totals.failed > 0 { throw ExitCode(1) }
    }

    /// The rendering child of ``RenderSupervisor``: plans and renders its
    /// share of the chosen books, printing each book's errors as soon as the
    /// book is finished and telling the supervisor what it draws.
    func renderSupervised(_ child: RenderSupervisor.Child, chosen: [String], options: LayoutOptions, run: RunOptions,
                          into destination: String) throws {
        var run = run
        if let jobs = child.jobs { run.jobs = jobs }
        let books = child.books.filter { chosen.indices.contains($0) }
        let paths = books.map { chosen[$0] }
        let planning = planBooks(paths, options, run: run, into: destination)
        let planned = planning.pathIndices.map { books[$0] }
        child.send("P \(planning.upToDate) " + planned.map(String.init).joined(separator: ","))
        let meter = ProgressMeter(enabled: !quiet && RenderSupervisor.Child.stderrIsTerminal, start: Date())
        let profile = StageProfile.fromEnvironment()
        _ = try BookRenderer.render(planning.plans, into: destination, options: run, cache: planning.cache, observer: profile,
                                    progress: meter.update) { [planned] event in
            switch event {
            case .spreadStarted(let book, let spread):
                child.send("S \(planned[book]) \(spread)")
            case .bookFinished(let book, let outcome):
                for error in outcome.errors { printError(error.description) }
                child.send("D \(planned[book]) \(outcome.written.count) \(outcome.succeeded ? 1 : 0) \(outcome.skipped ? 1 : 0)")
            }
        }
        meter.clear()
        if let profile { FileHandle.standardError.write(Data((profile.summary() + "\n").utf8)) }
    }

    /// The library's planning of every book, its warnings and failures printed.
    func planBooks(_ paths: [String], _ options: LayoutOptions, run: RunOptions = RunOptions(),
                   into destination: String? = nil) -> BookRenderer.PlannedBooks {
        let planned = BookRenderer.plan(paths, options: options, run: run, skippingUpToDateIn: destination)
        for note in planned.notes {
            switch note {
            case .warning(let warning): printError("warning: " + warning.description)
            case .failure(let error): printError(error.description)
            }
        }
        return planned
    }

    /// `--check GOLDEN`: plan changes first, then pixel differences; exit 1 if anything differs.
    func runCheck(golden: String, options: LayoutOptions) throws {
        let planning = planBooks(try ShardFlag.books(books, shard: shard), options)
        let (plans, refused) = BookRenderer.refusingDuplicateNames(planning.plans)
        for error in refused { printError(error.description) }
        var failed = planning.failed + refused.count
        var differing = 0, checked = 0
        var options = ImageComparator.Options()
        try reports.apply(to: &options)
        var everything: [FileComparison] = [], cases: [FileComparison] = []
        var books: [(prefix: String, comparison: BookComparison)] = []
        for plan in plans {
            do {
                let report = try GoldenCheck.check(plan, goldenRoot: golden, options: options, jobs: jobs,
                                                   diffRoot: diff, cache: planning.cache)
                let name = plan.book.outputName
                // The plan's changes in words when the pages could be compared, then each
                // spread's line, then each page slot that is not the same.
                for change in report.pages?.plan ?? report.planChanges { print("\(name)/\(change)") }
                for file in report.files { print("\(name)/\(file.line)") }
                for slot in report.pages?.slots ?? [] where slot.verdict != .same { print("\(name)/\(slot.line)") }
                checked += report.files.count
                differing += report.planChanges.count + report.files.filter { $0.status != .ok }.count
                for var result in report.changes + report.files {
                    result.name = name + "/" + result.name
                    everything.append(result)
                }
                if let pages = report.pages {
                    books.append((name + "/", pages))
                    cases += pages.testCases(book: name)
                } else {
                    cases += everything.suffix(report.changes.count + report.files.count)
                }
            } catch let error as MihirakiError {
                printError(error.description)
                failed += 1
            }
        }
        // JUnit has a case per page slot for each book compared page by page.
        try reports.write(everything, title: "mihiraki render --check \(golden)", suite: "mihiraki render --check",
                          cases: cases, books: books)
        if !quiet {
            FileHandle.standardError.write(Data("check: \(checked) spreads compared, \(differing) differences, \(failed) failed books\n".utf8))
        }
        if failed > 0 || differing > 0 { throw ExitCode(1) }
    }
}

/// The progress line on a terminal: books, spreads, rate and time left.
final class ProgressMeter: Sendable {
    let enabled: Bool
    let start: Date
    private let lastDraw = Mutex(Date.distantPast)

    init(enabled: Bool, start: Date) {
        self.enabled = enabled
        self.start = start
    }

    /// Called one at a time by the renderer.
    func update(_ progress: BookRenderer.Progress) {
        guard enabled else { return }
        let now = Date()
        let due = lastDraw.withLock { last in
            guard progress.spreadsDone == progress.spreadsTotal || now.timeIntervalSince(last) > 0.1 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(progress.spreadsDone) / elapsed
        let left = rate > 0 ? Double(progress.spreadsTotal - progress.spreadsDone) / rate : 0
        let line = "books \(progress.booksDone)/\(progress.booksTotal)  spreads \(progress.spreadsDone)/\(progress.spreadsTotal)  "
            + String(format: "%.1f spreads/s  ETA %d:%02d", rate, Int(left) / 60, Int(left) % 60)
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data(("mihiraki: " + line + "\n").utf8))
}
