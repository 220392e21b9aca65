import ArgumentParser
import Mihiraki

/// `--shard K/N` on the command line.
enum ShardFlag {
    /// The books of `paths` that shard `text` takes, in order; all of them without `--shard`.
    static func books(_ paths: [String], shard text: String?) throws -> [String] {
        guard let text else { return paths }
        guard let shard = Shard(parsing: text) else {
            throw ValidationError("--shard takes K/N with 1 ≤ K ≤ N (got \(text))")
        }
        return paths.filter { shard.contains(outputName: Book.outputName(forPath: $0)) }
    }
}
