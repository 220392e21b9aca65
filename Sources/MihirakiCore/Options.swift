/// Spread (two pages per image) or single (one page per image, never a blank).
public enum LayoutMode: String, CaseIterable, Codable, Sendable {
    /// Two pages per image, as an open book shows them.
    case spread
    /// One page per image, never a blank.
    case single
}

/// Reading direction of a book.
public enum ReadingDirection: String, CaseIterable, Codable, Sendable {
    /// Left to right: page 1 on the right of the first spread, `[x|1] [2|3]`.
    case ltr
    /// Right to left, the mirror image: `[1|x] [3|2]`.
    case rtl
}

/// Whether page 1 stands alone as a cover (`[x|1] [2|3]`) or pairs (`[1|2]`).
public enum CoverMode: String, CaseIterable, Sendable {
    /// Page 1 alone, as a recto: `[x|1] [2|3]`.
    case alone
    /// No separate cover: `[1|2] [3|4]`.
    case paired
}

/// Whether the last page pairs like any other or stands alone as a back cover.
public enum BackCoverMode: String, CaseIterable, Sendable {
    /// The last page pairs like any other; a page left over sits alone on the left (`[6|x]`).
    case paired
    /// The last page, unless wide, sits alone on the left in a left-to-right
    /// book (`[N|x]`, mirrored in right to left), as Komga's reader shows a
    /// back cover; a page left without a partner before it gets a blank.
    case alone
}

/// Whether pages pair by position only or also by their pixels (SPEC §2, "Automatic pairing").
public enum PairingMode: String, CaseIterable, Codable, Sendable {
    /// By position only: the imposition rules and the flags.
    case `static`
    /// Also keep together two consecutive pages whose facing edges continue
    /// one artwork (a two-page picture split into two files).
    case auto
}

/// The side of a spread a book declares for one of its pages (an EPUB's
/// `page-spread-left` / `page-spread-right`), as the reader sees it.
package enum PageSide: String, Hashable, Sendable {
    case left, right
}

/// How a page fills its slot.
public enum FitMode: String, CaseIterable, Sendable {
    /// Aspect-fit: the whole page visible, scaled up or down.
    case contain
    /// Fill the slot exactly, ignoring the page's aspect.
    case stretch
}

/// Horizontal placement of a page inside its slot.
public enum HorizontalAlignment: String, CaseIterable, Sendable {
    /// Pushed against the spine so the two pages of a spread meet at the gutter.
    case spine
    /// Centred in the slot.
    case center
}

/// Which pages share an image: everything the imposition rules depend on (Mihiraki.docc/ImpositionRules.md).
package struct ImpositionOptions: Hashable, Sendable {
    package var layout: LayoutMode
    package var direction: ReadingDirection
    package var cover: CoverMode
    /// Pages shown alone with a blank partner (`--solo`).
    package var soloPages: Set<Int>
    /// Pages that get a blank inserted before them (`--blank-before`).
    package var blankBefore: Set<Int>
    /// Write a right-to-left book in visual order (last spread first).
    package var strip: Bool
    /// Whether the last page stands alone as a back cover (`--back-cover`).
    package var backCover: BackCoverMode

    package init(layout: LayoutMode = .spread, direction: ReadingDirection = .ltr, cover: CoverMode = .alone,
                soloPages: Set<Int> = [], blankBefore: Set<Int> = [], strip: Bool = false,
                backCover: BackCoverMode = .paired) {
        self.layout = layout
        self.direction = direction
        self.cover = cover
        self.soloPages = soloPages
        self.blankBefore = blankBefore
        self.strip = strip
        self.backCover = backCover
    }
}

/// The shape of every page slot, `A×B` (default 771×1200).
public struct PageAspect: Hashable, Sendable, CustomStringConvertible {
    /// The slot's relative width (771 by default).
    public var width: Double
    /// The slot's relative height (1200 by default).
    public var height: Double

    /// An aspect of `width : height`; both positive and finite.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// 771×1200, the shape of a manga tankōbon page.
    public static let standard = PageAspect(width: 771, height: 1200)

    /// Parses `AxB` with positive finite numbers, e.g. `771x1200` or `1x1.414`.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]),
              a.isFinite, b.isFinite, a > 0, b > 0 else { return nil }
        self.init(width: a, height: b)
    }

    public var description: String { "\(formatNumber(width))x\(formatNumber(height))" }
}

/// Where pages go on the canvas: everything the geometry depends on (Mihiraki.docc/GeometryAndRounding.md).
package struct GeometryOptions: Hashable, Sendable {
    package var canvasWidth: Int
    package var canvasHeight: Int
    package var layout: LayoutMode
    package var gap: Double
    package var pageAspect: PageAspect
    package var fit: FitMode
    package var align: HorizontalAlignment

    package init(canvasWidth: Int = 2048, canvasHeight: Int = 1536, layout: LayoutMode = .spread, gap: Double = 0,
                pageAspect: PageAspect = .standard, fit: FitMode = .contain, align: HorizontalAlignment = .spine) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.layout = layout
        self.gap = gap
        self.pageAspect = pageAspect
        self.fit = fit
        self.align = align
    }
}

/// `2048` rather than `2048.0`; other values as Swift prints them.
func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
