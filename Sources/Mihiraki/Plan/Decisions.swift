import MihirakiAnalysis
import MihirakiCore

/// The decisions behind a book's spreads, each with its origin.
struct Decisions: Hashable, Sendable {
    var direction: ReadingDirection
    var directionOrigin: Origin
    var cover: CoverMode
    var coverOrigin: Origin
    /// Images dropped by ComicInfo (`Type="Deleted"`), by source path.
    var deleted: [String]
    /// Wide pages (numbers after deletions) and why each is wide.
    var wide: [Int: Origin]
    /// Pages the book puts on a side (numbers after deletions).
    var sides: [Int: DeclaredSide] = [:]
    /// Two halves of one artwork the book declares, by first page.
    var declaredSplits: [Int: DeclaredSplit] = [:]
    /// With automatic pairing: every seam judged, in reading order.
    var seams: [Seam] = []

    /// The seams taken as splits.
    var splits: [Seam] { seams.filter(\.isSplit) }

    /// The first page of every pair kept together, declared or found, in reading order.
    var splitFirstPages: [Int] { (declaredSplits.keys + splits.map(\.first)).sorted() }
}

/// A page the book file puts on one side of its spread.
struct DeclaredSide: Hashable, Sendable {
    var side: PageSide
    var origin: Origin
    /// A blank was inserted before the page to put it there.
    var blankBefore: Bool
}
