/// One share of a library split across machines (`--shard K/N`): each book
/// belongs to exactly one of N shards, chosen by a stable hash of its output
/// name. Adding or removing books never moves another book to a different
/// shard, and N machines that share nothing but the book list agree.
public struct Shard: Sendable, Equatable {
    /// 1-based: this is shard `index` of `count`.
    public let index: Int
    /// How many shards the library is split into.
    public let count: Int

    /// Parses `K/N` with `1 ≤ K ≤ N`; `nil` for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        index = k
        count = n
    }

    /// Whether the book with this output name (``Book/outputName(forPath:)``) is in this shard.
    public func contains(outputName: String) -> Bool {
        Self.shard(of: outputName, count: count) == index
    }

    /// The 1-based shard of an output name among `count`: FNV-1a of its UTF-8 bytes.
    static func shard(of outputName: String, count: Int) -> Int {
        var hash = FNV1a()
        hash.add(outputName)
        return Int(hash.value % UInt64(count)) + 1
    }
}
