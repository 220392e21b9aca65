/// Reading direction of a book.
public enum ReadingDirection: String, CaseIterable, Codable, Sendable {
    /// Left to right: page 1 on the right of the first spread, `[x|1] [2|3]`.
    case ltr
    /// Right to left, the mirror image: `[1|x] [3|2]`.
    case rtl
}
