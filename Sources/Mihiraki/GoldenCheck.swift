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
        public var passed: Bool { planChanges.isEmpty && files.allSatisfy { $0.status == .ok } }
    }

    /// Checks `plan` against `goldenRoot/<book>/`.
    ///
    /// - Parameters:
    ///   - diffRoot: when given, diff pictures go to `diffRoot/<book>/spread-NNN.png`.
    /// - Throws: `MihirakiError` if the golden manifest is missing or unreadable.
    public static func check(_ plan: BookPlan, goldenRoot: String, options: Comparator.Options,
                             diffRoot: String? = nil) throws -> Report {
        let folder = goldenRoot + "/" + plan.book.outputName
        let manifestPath = folder + "/manifest.json"
        let golden: [String: Any]
        do {
            let data = Data(try FileSystem.read(manifestPath))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw MihirakiError(.badBook, path: manifestPath, "not a Mihiraki manifest")
            }
            golden = object
        } catch let error as MihirakiError {
            throw error
        } catch {
            throw MihirakiError(.badBook, path: manifestPath, "not valid JSON")
        }
        var changes: [String] = []
        let current = (try? JSONSerialization.jsonObject(with: Data(plan.manifestJSON.utf8))) as? [String: Any] ?? [:]
        for key in ["canvas", "layout", "direction"] where describe(golden[key]) != describe(current[key]) {
            changes.append("plan changed: \(key) \(describe(golden[key])) → \(describe(current[key]))")
        }
        let goldenSpreads = spreadsByFile(golden), currentSpreads = spreadsByFile(current)
        var unchanged: [Int] = []
        for (index, entry) in plan.entries.enumerated() {
            guard let before = goldenSpreads[entry.file] else {
                changes.append("\(entry.file): plan changed: new spread \(entry.spread)")
                continue
            }
            let after = currentSpreads[entry.file] ?? ""
            if before != after {
                changes.append("\(entry.file): plan changed: \(before) → \(after)")
            } else {
                unchanged.append(index)
            }
        }
        let currentFiles = Set(plan.entries.map(\.file))
        for file in goldenSpreads.keys.sorted(by: NaturalOrder.less) where !currentFiles.contains(file) {
            changes.append("\(file): plan changed: spread no longer produced")
        }

        let toCompare = unchanged
        let results = ParallelMap.run(toCompare.count, jobs: plan.options.jobs) { k -> FileComparison in
            let index = toCompare[k]
            let file = plan.entries[index].file
            do {
                let image = try plan.renderSpread(at: index)
                let expected = try Comparator.load(folder + "/" + file)
                return Comparator.compare(expected: expected, actual: image, name: file, options: options,
                                          diffPath: diffRoot.map { $0 + "/" + plan.book.outputName + "/" + file })
            } catch let error as MihirakiError {
                return FileComparison(name: file, status: FileSystem.kind(folder + "/" + file) == .missing ? .missing : .error,
                                      detail: error.description)
            } catch {
                return FileComparison(name: file, status: .error, detail: "\(error)")
            }
        }
        return Report(planChanges: changes, files: results)
    }

    /// `file → "[2|3] left 2 [37, 66, 987, 1404], right 3 […]"` for each spread of a manifest.
    static func spreadsByFile(_ manifest: [String: Any]) -> [String: String] {
        var result: [String: String] = [:]
        for case let spread as [String: Any] in manifest["spreads"] as? [Any] ?? [] {
            guard let file = spread["file"] as? String else { continue }
            let slots = (spread["slots"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
            let pages = slots.map { ($0["page"] as? Int).map(String.init) ?? "x" }
            let notation: String
            switch slots.first?["side"] as? String {
            case "wide": notation = "[\(pages.first ?? "?")W]"
            case "single": notation = "[\(pages.first ?? "?")]"
            default: notation = "[" + pages.joined(separator: "|") + "]"
            }
            let rects = slots.map { slot in
                "\(slot["side"] as? String ?? "?") \(((slot["page"] as? Int).map(String.init)) ?? "blank") "
                    + "\(describe(slot["rect"]))" + ((slot["source"] as? String).map { " " + $0 } ?? "")
            }
            result[file] = notation + " " + rects.joined(separator: ", ")
        }
        return result
    }

    static func describe(_ value: Any?) -> String {
        switch value {
        case let number as Int: return String(number)
        case let text as String: return text
        case let array as [Any]: return "[" + array.map { describe($0) }.joined(separator: ", ") + "]"
        case let object as [String: Any]:
            if let w = object["width"] as? Int, let h = object["height"] as? Int { return "\(w)×\(h)" }
            return "{" + object.keys.sorted().map { "\($0): \(describe(object[$0]))" }.joined(separator: ", ") + "}"
        case nil: return "none"
        default: return "\(value!)"
        }
    }
}

/// Runs `count` independent jobs on `jobs` threads and returns their results in order.
enum ParallelMap {
    static func run<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let slots = Slots<T>(count: count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, count)) {
            DispatchQueue.global().async(group: group) {
                while let index = slots.claim() { slots.store(index, body(index)) }
            }
        }
        group.wait()
        return slots.values()
    }

    final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var results: [T?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func claim() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < results.count else { return nil }
            next += 1
            return next - 1
        }
        func store(_ index: Int, _ value: T) {
            lock.lock(); defer { lock.unlock() }
            results[index] = value
        }
        func values() -> [T] { results.map { $0! } }
    }
}
