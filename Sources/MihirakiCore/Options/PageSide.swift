/// The side of a spread a book declares for one of its pages (an EPUB's
/// `page-spread-left` / `page-spread-right`), as the reader sees it.
package enum PageSide: String, Hashable, Sendable {
    case left, right
}
