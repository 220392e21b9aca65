/// The nearest of some known words to one that is not among them, for "did
/// you mean" hints: a mistyped command, option or keyword.
package enum NearestWord {
    /// The known word fewest edits away from `word` (the first of equals),
    /// when it is at most `within` edits away.
    package static func nearest(to word: String, among known: [String], within: Int = 2) -> String? {
        let scored = known.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= within else { return nil }
        return best.0
    }

    /// Edits from `a` to `b` (Levenshtein), one row at a time.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
