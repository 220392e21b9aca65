/// Two consecutive pages the book declares to be one artwork (ComicInfo's
/// `DoublePage` on both, or KCC's spread labels), kept together like a split.
struct DeclaredSplit: Hashable, Sendable {
    var origin: Origin
    /// A blank was inserted before the first page to keep them together.
    var needsBlank = false
}
