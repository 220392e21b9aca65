/// One half of a wide page cut at its gutter (`--split-wide`): `a` is the
/// half read first (the left one in a left-to-right book), `b` the other.
package enum PageHalf: String, Hashable, Sendable, CaseIterable {
    case a, b
}
