/// Natural, case-insensitive ordering of file names: `page2` < `page10`.
package enum NaturalOrder {
    /// True when `a` sorts before `b`. Digit runs compare by value, other runs
    /// case-insensitively; names equal that way fall back to their exact bytes,
    /// so the order is total and the same on every machine.
    package static func less(_ a: String, _ b: String) -> Bool {
        let ka = key(a), kb = key(b)
        for (x, y) in zip(ka, kb) where x != y {
            return x < y
        }
        if ka.count != kb.count { return ka.count < kb.count }
        return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }

    /// Sorts names naturally.
    package static func sorted(_ names: [String]) -> [String] {
        names.sorted(by: less)
    }

    enum Chunk: Comparable {
        // Numbers sort before text at the same position, as file managers do.
        case number(digits: [UInt8])   // without leading zeros
        case text([UInt8])             // lower-cased UTF-8

        static func < (lhs: Chunk, rhs: Chunk) -> Bool {
            switch (lhs, rhs) {
            case (.number(let a), .number(let b)):
                if a.count != b.count { return a.count < b.count }
                return a.lexicographicallyPrecedes(b)
            case (.text(let a), .text(let b)):
                return a.lexicographicallyPrecedes(b)
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
    }

    static func key(_ name: String) -> [Chunk] {
        var chunks: [Chunk] = []
        var current: [UInt8] = []
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits {
                let significant = current.drop(while: { $0 == UInt8(ascii: "0") })
                chunks.append(.number(digits: Array(significant)))
            } else {
                chunks.append(.text(current))
            }
            current.removeAll()
        }
        for byte in name.lowercased().utf8 {
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            if isDigit != inDigits { flush(); inDigits = isDigit }
            current.append(byte)
        }
        flush()
        return chunks
    }
}
