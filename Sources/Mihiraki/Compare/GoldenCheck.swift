import Foundation
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// `render --check GOLDEN`: renders a book in memory and compares it with
/// golden spreads and manifest written earlier by `render -o GOLDEN`.
public enum GoldenCheck {
    /// What a check found for one book.
    public struct Report: Sendable {
        /// Differences in the plan (spreads or rectangles), reported before
        /// any pixels: `spread-003.png: plan changed: …`, or
        /// `manifest.json: plan changed: canvas …` for the whole book.
        public var planChanges: [String] { changes.map(\.line) }
        /// One comparison per spread whose plan is unchanged.
        public var files: [FileComparison]
        /// No plan change and every spread equal within tolerance.
        public var passed: Bool { changes.isEmpty && files.allSatisfy { $0.status == .ok } }
        /// The plan changes as failed comparisons, for reports: the spread's
        /// file (or `manifest.json`) with the change as its detail.
        package var changes: [FileComparison]
        /// Page by page (SPEC §5b), when anything differs: the plan's
        /// changes in words and a verdict per page slot.
        package var pages: BookComparison?
    }

    /// Checks `plan` against `goldenRoot/<book>/`: first the plan against the
    /// golden manifest, then, for each spread whose plan is unchanged, its
    /// pixels against the golden file. Goldens in a lossy format are compared
    /// with this render encoded the same way and decoded again, so an
    /// unchanged book matches exactly.
    ///
    /// - Parameters:
    ///   - plan: the book as it renders now.
    ///   - goldenRoot: the folder `render -o` (or `--check --update`) wrote the goldens to.
    ///   - options: what counts as a difference.
    ///   - jobs: spreads rendered and compared in parallel.
    ///   - diffRoot: when given, diff pictures go to `diffRoot/<book>/spread-NNN.png`.
    /// - Returns: the plan changes and one comparison per unchanged spread.
    /// - Throws: ``MihirakiError`` if the golden manifest is missing or unreadable.
    public static func check(_ plan: SpreadPlan, goldenRoot: String, options: ImageComparator.Options = ImageComparator.Options(),
                             jobs: Int = 1, diffRoot: String? = nil) throws -> Report {
        try check(plan, goldenRoot: goldenRoot, options: options, jobs: jobs, diffRoot: diffRoot, cache: nil)
    }

    /// ``check(_:goldenRoot:options:jobs:diffRoot:)`` drawing from the pages the run's measuring kept.
    package static func check(_ plan: SpreadPlan, goldenRoot: String, options: ImageComparator.Options, jobs: Int,
                              diffRoot: String?, cache: PageCache?) throws -> Report {
        let folder = goldenRoot + "/" + plan.book.outputName
        let manifestPath = folder + "/manifest.json"
        let golden: Manifest
        do {
            golden = try Manifest(json: try FileSystem.read(manifestPath))
        } catch let error as MihirakiError {
            throw error
        } catch {
            throw MihirakiError(.badBook, path: manifestPath, "not a Mihiraki manifest", underlying: error)
        }
        let current = plan.manifest
        var changes: [FileComparison] = []
        func changed(_ file: String, _ text: String) {
            changes.append(FileComparison(name: file, status: .diff, detail: "plan changed: " + text))
        }
        if golden.canvas != current.canvas { changed("manifest.json", "canvas \(golden.canvas.text) → \(current.canvas.text)") }
        if golden.layout != current.layout {
            changed("manifest.json", "layout \(golden.layout.rawValue) → \(current.layout.rawValue)")
        }
        if golden.direction != current.direction {
            changed("manifest.json", "direction \(golden.direction.rawValue) → \(current.direction.rawValue)")
        }
        let goldenSpreads = Dictionary(golden.spreads.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        var unchanged: [Int] = []
        for (index, spread) in current.spreads.enumerated() {
            guard let before = goldenSpreads[spread.file] else {
                changed(spread.file, "new spread \(spread.notation)")
                continue
            }
            if before != spread {
                changed(spread.file, "\(before.text) → \(spread.text)")
            } else {
                unchanged.append(index)
            }
        }
        let currentFiles = Set(current.spreads.map(\.file))
        for file in goldenSpreads.keys.sorted(by: NaturalOrder.less) where !currentFiles.contains(file) {
            changed(file, "spread no longer produced")
        }

        let toCompare = unchanged
        let results = ParallelMap.run(toCompare.count, jobs: jobs) { k -> FileComparison in
            let index = toCompare[k]
            let file = plan.entries[index].file
            let key = plan.book.outputName + "/" + file
            do {
                let image = try plan.spreadAsWritten(at: index, cache: cache)
                let expected = try ImageComparator.load(folder + "/" + file)
                return ImageComparator.compare(expected: expected, actual: image, name: file, options: options,
                                          diffPath: diffRoot.map { $0 + "/" + key },
                                          sources: ImageComparator.Sources(key: key, expectedFile: folder + "/" + file))
            } catch {
                let missing = FileSystem.kind(folder + "/" + file) == .missing
                return FileComparison(name: file, status: missing ? .missing : .error,
                                      detail: MihirakiError.from(error, path: folder + "/" + file).description)
            }
        }
        return Report(files: results, changes: changes,
                      pages: pages(plan, golden: golden, folder: folder, compared: Array(zip(toCompare, results)), changed: !changes.isEmpty,
                                   options: options))
    }

    /// The page-by-page comparison when the plan changed or a spread
    /// differs; spreads that matched are not rendered again. Nil when a
    /// golden spread cannot be read (its file's line says so).
    static func pages(_ plan: SpreadPlan, golden: Manifest, folder: String, compared: [(Int, FileComparison)],
                      changed: Bool, options: ImageComparator.Options) -> BookComparison? {
        let matched = compared.filter { $0.1.status == .ok && $0.1.differingPixels == 0 && $0.1.antialiasedPixels == 0 }
        guard changed || matched.count < compared.count else { return nil }
        let current = plan.manifest
        let index = Dictionary(current.spreads.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { first, _ in first })
        return try? BookComparison.compare(
            was: golden, now: current, expected: { try ImageComparator.load(folder + "/" + $0) },
            actual: { name in try index[name].map { try plan.spreadAsWritten(at: $0) } },
            knownSame: Set(matched.map { plan.entries[$0.0].file }), options: options)
    }
}
