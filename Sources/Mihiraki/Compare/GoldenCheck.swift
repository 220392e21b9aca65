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
        /// any pixels: `spread-003.png: plan changed: …`.
        public var planChanges: [String]
        /// One comparison per spread whose plan is unchanged.
        public var files: [FileComparison]
        /// No plan change and every spread equal within tolerance.
        public var passed: Bool { planChanges.isEmpty && files.allSatisfy { $0.status == .ok } }
    }

    /// Checks `plan` against `goldenRoot/<book>/`: first the plan against the
    /// golden manifest, then, for each spread whose plan is unchanged, its
    /// pixels against the golden file.
    ///
    /// - Parameters:
    ///   - plan: the book as it renders now.
    ///   - goldenRoot: the folder `render -o` (or `--check --update`) wrote the goldens to.
    ///   - options: what counts as a difference.
    ///   - jobs: spreads rendered and compared in parallel.
    ///   - diffRoot: when given, diff pictures go to `diffRoot/<book>/spread-NNN.png`.
    /// - Returns: the plan changes and one comparison per unchanged spread.
    /// - Throws: ``MihirakiError`` if the golden manifest is missing or unreadable.
    public static func check(_ plan: BookPlan, goldenRoot: String, options: Comparator.Options = Comparator.Options(),
                             jobs: Int = 1, diffRoot: String? = nil) throws -> Report {
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
        var changes: [String] = []
        if golden.canvas != current.canvas { changes.append("plan changed: canvas \(golden.canvas.text) → \(current.canvas.text)") }
        if golden.layout != current.layout {
            changes.append("plan changed: layout \(golden.layout.rawValue) → \(current.layout.rawValue)")
        }
        if golden.direction != current.direction {
            changes.append("plan changed: direction \(golden.direction.rawValue) → \(current.direction.rawValue)")
        }
        let goldenSpreads = Dictionary(golden.spreads.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        var unchanged: [Int] = []
        for (index, spread) in current.spreads.enumerated() {
            guard let before = goldenSpreads[spread.file] else {
                changes.append("\(spread.file): plan changed: new spread \(spread.notation)")
                continue
            }
            if before != spread {
                changes.append("\(spread.file): plan changed: \(before.text) → \(spread.text)")
            } else {
                unchanged.append(index)
            }
        }
        let currentFiles = Set(current.spreads.map(\.file))
        for file in goldenSpreads.keys.sorted(by: NaturalOrder.less) where !currentFiles.contains(file) {
            changes.append("\(file): plan changed: spread no longer produced")
        }

        let toCompare = unchanged
        let results = ParallelMap.run(toCompare.count, jobs: jobs) { k -> FileComparison in
            let index = toCompare[k]
            let file = plan.entries[index].file
            do {
                let image = try plan.renderSpread(at: index)
                let expected = try Comparator.load(folder + "/" + file)
                return Comparator.compare(expected: expected, actual: image, name: file, options: options,
                                          diffPath: diffRoot.map { $0 + "/" + plan.book.outputName + "/" + file })
            } catch {
                let missing = FileSystem.kind(folder + "/" + file) == .missing
                return FileComparison(name: file, status: missing ? .missing : .error,
                                      detail: MihirakiError.from(error, path: folder + "/" + file).description)
            }
        }
        return Report(planChanges: changes, files: results)
    }
}
