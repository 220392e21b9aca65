import MihirakiCodecs

/// How a run goes, as opposed to what it draws (``LayoutOptions``): none of
/// these change a pixel of a spread.
public struct RunOptions: Sendable {
    /// Parallel workers. The output is the same bytes for any number.
    public var jobs = 1
    /// PNG speed against size.
    public var compression: PNGCompression = .default
    /// Also write `contact-sheet.png`, a labelled grid of all spreads of a book.
    public var contactSheet = false
    /// Skip a book whose `manifest.json` records the same input fingerprint
    /// and whose files are all there; after re-rendering a changed book,
    /// remove the spread files it no longer has.
    public var incremental = false

    /// Options with every default: one worker, default compression, no contact sheet.
    public init() {}

    /// Checks the values.
    /// - Throws: ``MihirakiError`` with code `.usage`.
    package func validate() throws {
        guard jobs >= 1 else { throw MihirakiError(.usage, "--jobs must be at least 1") }
    }
}
