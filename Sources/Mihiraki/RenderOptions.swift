import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// Everything that decides what Mihiraki draws and writes (SPEC §5's options).
public struct RenderOptions: Sendable {
    /// `ltr`, `rtl`, or `auto` (the book's ComicInfo, else left-to-right).
    public enum DirectionChoice: String, CaseIterable, Sendable {
        case ltr, rtl, auto
    }

    /// The canvas: exact, or one side derived from the spread's natural aspect.
    public var size: CanvasSize = .exact(width: 2048, height: 1536)
    public var layout: LayoutMode = .spread
    public var direction: DirectionChoice = .auto
    /// `nil`: a lone cover unless the book's ComicInfo says otherwise.
    public var cover: CoverMode? = nil
    public var pageAspect: PageAspect = .standard
    /// A page is wide when `width / height` is above this.
    public var wideThreshold = 1.0
    public var soloPages: Set<Int> = []
    public var blankBefore: Set<Int> = []
    public var gap = 0.0
    public var fit: FitMode = .contain
    public var align: HorizontalAlignment = .spine
    public var background: Color = .black
    public var blank: Color = .white
    public var strip = false
    /// Also write `contact-sheet.png`, a labelled grid of all spreads of a book.
    public var contactSheet = false
    public var compression: PNGEncoder.Compression = .default
    /// Parallel workers for `render`.
    public var jobs = 1
    /// Pages whose header claims more pixels are refused before decoding.
    public var maxPixels = PageDecoder.defaultMaxPixels

    public init() {}

    /// The canvas size in pixels, with a derived side resolved.
    public var canvas: (width: Int, height: Int) {
        size.resolved(layout: layout, pageAspect: pageAspect, gap: gap)
    }

    /// The pure geometry inputs.
    public var geometry: GeometryOptions {
        let canvas = canvas
        return GeometryOptions(canvasWidth: canvas.width, canvasHeight: canvas.height, layout: layout, gap: gap,
                               pageAspect: pageAspect, fit: fit, align: align)
    }

    /// Checks values that parsing alone cannot.
    /// - Throws: `MihirakiError` with code `.usage`.
    public func validate() throws {
        let (canvasWidth, canvasHeight) = canvas
        guard canvasWidth > 0, canvasHeight > 0, canvasWidth <= 65535, canvasHeight <= 65535 else {
            throw MihirakiError(.usage, "--size must be between 1x1 and 65535x65535")
        }
        guard gap >= 0, gap.isFinite, gap < Double(canvasWidth) else {
            throw MihirakiError(.usage, "--gap must be at least 0 and less than the canvas width")
        }
        guard wideThreshold > 0, wideThreshold.isFinite else {
            throw MihirakiError(.usage, "--wide-threshold must be a positive number")
        }
        guard jobs >= 1 else { throw MihirakiError(.usage, "--jobs must be at least 1") }
        guard maxPixels >= 1 else { throw MihirakiError(.usage, "--max-pixels must be at least 1") }
        if let bad = soloPages.union(blankBefore).first(where: { $0 < 1 }) {
            throw MihirakiError(.usage, "page numbers start at 1 (got \(bad))")
        }
    }
}
