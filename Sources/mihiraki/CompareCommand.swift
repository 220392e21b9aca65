import ArgumentParser
import Foundation
import Mihiraki

extension ComparisonMetric: ExpressibleByArgument {}

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two images, or two folders of them, the way pixelmatch does.",
        discussion: """
        Prints one line per file: ok, DIFF n px (p %), missing or extra. Images of different sizes \
        differ, and the line names both sizes. Two book folders that render wrote (each with \
        manifest.json) are compared by their pages instead: first what changed in the plan (canvas, \
        layout, direction, spreads, pages that changed place), then one line per page or background \
        that is not the same: moved (dx, dy) within --shift-tolerance, changed (with its regions), \
        added or removed. --report writes an HTML page to look at, --junit a file \
        for CI. Exit status: 0 when everything matches, 1 when anything differs or is missing on one \
        side, 2 on error.
        """)

    @Argument(help: ArgumentHelp("The expected image (\(HelpNames.pageFormats)) or folder."))
    var expected: String

    @Argument(help: "The actual image or folder.")
    var actual: String

    @Option(help: ArgumentHelp("What makes a pixel differ: pixelmatch (YIQ colour distance), ciede2000 (ΔE00) or ssim (local SSIM on luma).",
                               valueName: "METRIC"))
    var metric: ComparisonMetric = .pixelmatch

    @Option(help: "The metric's threshold: pixelmatch 0…1 (default 0.1), ciede2000 in ΔE units (default 1.0, just noticeable), ssim -1…1 (a pixel differs under it; default 0.98).")
    var threshold: Double?

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences too.")
    var includeAA = false

    @Option(help: ArgumentHelp("Write diff pictures here: a file when comparing files, a folder when comparing folders.", valueName: "PATH"))
    var diff: String?

    @Option(name: .customLong("max-diff-pixels"), help: "Allow up to N differing pixels per image.")
    var maxDiffPixels: Int = 0

    @Option(name: .customLong("max-diff-ratio"), help: "Allow up to this fraction (0…1) of differing pixels per image.")
    var maxDiffRatio: Double = 0

    @Flag(help: "Print a JSON report instead of lines (for two book folders: the plan, and each file's page slots).")
    var json = false

    @Option(name: .customLong("shift-tolerance"),
            help: "Between two book folders: a page whose content moved by at most N pixels is 'moved', not changed.")
    var shiftTolerance: Int = 2

    @OptionGroup var reports: ReportFlags

    func run() throws {
        var options = ImageComparator.Options()
        options.metric = metric
        options.threshold = threshold
        options.includeAntialiased = includeAA
        options.maxDiffPixels = maxDiffPixels
        options.maxDiffRatio = maxDiffRatio
        options.diffPath = diff
        try reports.apply(to: &options)
        try options.validate()
        try BookComparison.check(shiftTolerance: shiftTolerance)
        let results: [FileComparison]
        if isFolder(expected), isFolder(actual), try compareBooks(options) { return }
        switch (isFolder(expected), isFolder(actual)) {
        case (true, true):
            do {
                results = try ImageComparator.compareFolders(expected: expected, actual: actual, options: options)
            } catch let error as MihirakiError {
                printError(error.description)
                throw ExitCode(2)
            }
        case (false, false):
            results = [ImageComparator.compareFiles(expected: expected, actual: actual, options: options)]
        default:
            throw ValidationError("compare two files or two folders, not one of each")
        }
        try reports.write(results, title: "mihiraki compare \(expected) \(actual)", suite: "mihiraki compare")
        if json {
            print(ImageComparator.json(results), terminator: "")
        } else {
            for result in results { print(result.line) }
        }
        if results.contains(where: { $0.status == .error }) {
            for result in results where result.status == .error { printError(result.detail ?? result.line) }
            throw ExitCode(2)
        }
        if results.contains(where: { $0.status != .ok }) { throw ExitCode(1) }
    }

    /// Two book folders with manifests, or two OUTDIRs of them, compared
    /// page by page (SPEC §5b): prints their lines (each with its book's
    /// name before it for OUTDIRs) and ends the command; false when neither
    /// holds a manifest Mihiraki reads (then files are compared one by one).
    func compareBooks(_ options: ImageComparator.Options) throws -> Bool {
        let manifests = [expected, actual].map { FileSystem.kind($0 + "/manifest.json") == .file }
        let single = manifests[0] && manifests[1]
        if manifests[0] != manifests[1] {
            let without = manifests[0] ? actual : expected
            printError("note: \(without) has no manifest.json: comparing file by file")
            return false
        }
        let names = single ? [""] : Set(bookFolders(expected) + bookFolders(actual)).sorted()
        guard !names.isEmpty else { return false }
        var books: [(name: String, comparison: BookComparison?, files: [FileComparison])] = []
        do {
            for name in names {
                let (a, b) = single ? (expected, actual) : (expected + "/" + name, actual + "/" + name)
                let comparison = try BookComparison.compare(expected: a, actual: b, options: options, shiftTolerance: shiftTolerance)
                guard single || comparison != nil else {
                    // A book on one side only.
                    let missing = FileSystem.kind(b + "/manifest.json") != .file
                    books.append((name, nil, [FileComparison(name: name, status: missing ? .missing : .extra)]))
                    continue
                }
                guard let comparison else {
                    printError("note: a manifest.json Mihiraki cannot read (from another version?): comparing file by file")
                    return false
                }
                let files = reports.isRequested || json ? try ImageComparator.compareFolders(expected: a, actual: b, options: options) : []
                books.append((name, comparison, files))
            }
        } catch let error as MihirakiError {
            printError(error.description)
            throw ExitCode(2)
        }
        // The report is file by file with each book's plan and verdicts on it, JUnit a case
        // per page slot; JSON lists both.
        if reports.isRequested {
            let cases = books.flatMap { book in
                book.comparison?.testCases(book: single ? FileSystem.lastComponent(of: expected) : book.name) ?? book.files
            }
            let marked = books.compactMap { book in book.comparison.map { (single ? "" : book.name + "/", $0) } }
            try reports.write(try ImageComparator.compareFolders(expected: expected, actual: actual, options: options),
                              title: "mihiraki compare \(expected) \(actual)", suite: "mihiraki compare", cases: cases,
                              books: marked)
        }
        let ok = books.allSatisfy { $0.comparison?.ok ?? false }
        if json {
            if single, let only = books.first?.comparison {
                print(ImageComparator.json(only, files: books[0].files), terminator: "")
            } else {
                print(ImageComparator.json(books: books.map { ($0.name, $0.comparison, $0.files) }), terminator: "")
            }
        } else {
            for book in books {
                let prefix = single ? "" : book.name + ": "
                guard let comparison = book.comparison else {
                    print(prefix + (book.files.first?.status == .missing ? "missing" : "extra"))
                    continue
                }
                let lines = comparison.lines
                for line in lines.isEmpty ? ["ok: \(comparison.slots.filter { $0.page != nil }.count) pages and every background the same"]
                        : lines {
                    print(prefix + line)
                }
            }
        }
        if !ok { throw ExitCode(1) }
        return true
    }

    /// The folders directly under `root` that hold a manifest: the books of an OUTDIR.
    func bookFolders(_ root: String) -> [String] {
        ((try? FileSystem.list(root)) ?? []).filter { FileSystem.kind(root + "/" + $0 + "/manifest.json") == .file }
    }

    func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
