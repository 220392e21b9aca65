import MihirakiCodecs

/// How a run goes, as opposed to what it draws and writes (``LayoutOptions``):
/// none of these change a byte of a spread file.
public struct RunOptions: Sendable {
    /// Parallel workers. The output is the same bytes for any number.
    public var jobs = 1
    /// Also write `contact-sheet.png` (or `.jpg`, `.webp`, `.avif`: the
    /// spreads' format), a labelled grid of all spreads of a book.
    public var contactSheet = false
    /// Also write `ComicInfo.xml`: the book's own (or a new one) with both
    /// pages of every split found or declared marked `DoublePage="true"`, so
    /// a library's reader keeps them together too.
    public var writeComicInfo = false
    /// Skip a book whose `manifest.json` records the same input fingerprint
    /// and whose files are all there; after re-rendering a changed book,
    /// remove the spread files it no longer has.
    public var incremental = false
    /// Leave a file whose bytes would not change as it is, its time too,
    /// rewriting only the files that differ (`render --check --update
    /// changed`: a golden change is a small, reviewable diff).
    public var keepUnchangedFiles = false

    /// Options with every default: one worker, no contact sheet, nothing skipped.
    public init() {}

    /// Checks the values.
    /// - Throws: ``MihirakiError`` with code `.usage`.
    package func validate() throws {
        guard jobs >= 1 else { throw MihirakiError(.usage, "--jobs must be at least 1") }
    }
}
