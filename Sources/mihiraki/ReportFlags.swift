import ArgumentParser
import Foundation
import Mihiraki

/// The flags `compare` and `render --check` share: what to leave out of the
/// count, and the reports to write.
struct ReportFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Leave the rectangle X,Y,W,H (image pixels) out of the count (repeatable).",
                               valueName: "X,Y,W,H"))
    var ignore: [String] = []

    @Option(help: ArgumentHelp("Leave out the pixels where this image (the compared images' size) is neither black nor transparent.",
                               valueName: "PNG"))
    var mask: String?

    @Option(help: ArgumentHelp("Write an HTML report to DIR/index.html, its pictures beside it.", valueName: "DIR"))
    var report: String?

    @Option(help: ArgumentHelp("Write JUnit XML, one test case per compared file.", valueName: "PATH"))
    var junit: String?

    /// Adds the ignore regions, the mask and the report folder to `options`.
    /// Whether an HTML report or a JUnit file is asked for.
    var isRequested: Bool { report != nil || junit != nil }

    func apply(to options: inout ImageComparator.Options) throws {
        for text in ignore {
            let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            // The ranges are the library's rule (ImageComparator.Options.validate).
            guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let w = numbers[2], let h = numbers[3] else {
                throw ValidationError("--ignore takes X,Y,W,H with X, Y ≥ 0 and W, H > 0 (got \(text))")
            }
            options.ignore.append((x: x, y: y, width: w, height: h))
        }
        if let mask { options.mask = try ImageComparator.load(mask) }
        if let report {
            if FileManager.default.fileExists(atPath: report + "/index.html") {
                // Pictures of an earlier report would linger beside the new page.
                for folder in ["expected", "actual", "diff"] where FileManager.default.fileExists(atPath: report + "/" + folder) {
                    do {
                        try FileManager.default.removeItem(atPath: report + "/" + folder)
                    } catch {
                        throw ValidationError("--report: cannot clear \(report)/\(folder): \(error.localizedDescription)")
                    }
                }
            }
            options.reportFolder = report
        }
    }

    /// Writes the HTML report and the JUnit file that were asked for; the
    /// JUnit file from `cases` when given (a book's page slots).
    func write(_ results: [FileComparison], title: String, suite: String, cases: [FileComparison]? = nil,
               books: [(prefix: String, comparison: BookComparison)] = []) throws {
        if let report { try ImageComparator.writeReport(results, to: report, title: title, books: books) }
        if let junit {
            do {
                try ImageComparator.junit(cases ?? results, suite: suite).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                throw ValidationError("--junit: cannot write \(junit): \(error.localizedDescription)")
            }
        }
    }
}
