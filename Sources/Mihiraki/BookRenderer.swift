import Foundation
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Renders planned books to folders of PNG spreads plus `manifest.json`.
public enum BookRenderer {
    /// What rendering one book produced.
    public struct Outcome: Sendable {
        /// The folder the spreads went to.
        public var folder: String
        /// Spread files written, in file order.
        public var written: [String]
        /// Spreads that failed, in file order; the book failed if any did.
        public var errors: [MihirakiError]
        public var succeeded: Bool { errors.isEmpty }
    }

    /// Writes every spread of `plan` to `outputRoot/<book name>/` and, when all
    /// succeed, `manifest.json`. Each file is written under a temporary name
    /// and renamed, so no half-written file ever has a final name.
    ///
    /// - Parameters:
    ///   - plan: the book's plan.
    ///   - outputRoot: the folder that receives one sub-folder per book.
    /// - Returns: the files written and the errors of the spreads that failed.
    /// - Throws: `MihirakiError` if the output folder cannot be created.
    public static func render(_ plan: BookPlan, into outputRoot: String) throws -> Outcome {
        let folder = outputRoot + "/" + plan.book.name
        try FileSystem.makeDirectories(folder)
        let count = plan.entries.count
        let results = ResultSlots(count: count)
        let workers = max(1, min(plan.options.jobs, count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            DispatchQueue.global().async(group: group) {
                while let index = results.claim() {
                    do {
                        let image = try plan.renderSpread(at: index)
                        let png = try encode(image, compression: plan.options.compression)
                        try FileSystem.writeAtomically(png, to: folder + "/" + plan.entries[index].file)
                        results.store(index, .success(plan.entries[index].file))
                    } catch let error as MihirakiError {
                        results.store(index, .failure(error))
                    } catch {
                        results.store(index, .failure(MihirakiError(.io, path: plan.entries[index].file, "\(error)")))
                    }
                }
            }
        }
        group.wait()
        var written: [String] = [], errors: [MihirakiError] = []
        for result in results.all() {
            switch result {
            case .success(let file): written.append(file)
            case .failure(let error): errors.append(error)
            }
        }
        if errors.isEmpty {
            try FileSystem.writeAtomically(Array(plan.manifestJSON.utf8), to: folder + "/manifest.json")
        }
        return Outcome(folder: folder, written: written, errors: errors)
    }

    static func encode(_ image: PixelBuffer, compression: PNGEncoder.Compression) throws -> [UInt8] {
        do {
            return try PNGEncoder.encode(image, compression: compression)
        } catch let error as CodecError {
            throw MihirakiError(.io, "PNG encoding failed: \(error.message)")
        }
    }
}

/// Hands out spread indices to workers and keeps each one's result in its
/// own slot, so the outcome is in file order whatever the thread timing.
final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var results: [Result<String, MihirakiError>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < results.count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ index: Int, _ result: Result<String, MihirakiError>) {
        lock.lock(); defer { lock.unlock() }
        results[index] = result
    }

    func all() -> [Result<String, MihirakiError>] {
        lock.lock(); defer { lock.unlock() }
        return results.compactMap { $0 }
    }
}
