import MihirakiAnalysis
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// What Mihiraki draws and writes: the canvas, the imposition and the
/// geometry of every spread, the limit on page size, and the file format.
/// These options decide every byte of every spread file: the same options
/// always give the same plan, the same pixels and the same files.
///
/// How a run goes (workers, extra files, skipping) is ``RunOptions``.
public struct LayoutOptions: Sendable {
    /// The canvas: exact, or one side derived from the spread's natural aspect.
    public var size: CanvasSize = .exact(width: 2048, height: 1536)
    /// Two pages per image, or one.
    public var layout: LayoutMode = .spread
    /// The reading direction; `nil`: the book's `ComicInfo.xml`, else left to right.
    public var direction: ReadingDirection? = nil
    /// Whether page 1 stands alone; `nil`: alone, unless the book's ComicInfo says otherwise.
    public var cover: CoverMode? = nil
    /// The shape of every page slot (771×1200 by default).
    public var pageAspect: PageAspect = .standard
    /// A page is wide (shown across the whole spread) when `width / height` is above this.
    public var wideThreshold = 1.0
    /// Pages shown alone with a blank partner (1-based).
    public var soloPages: Set<Int> = []
    /// Pages that get a blank inserted before them (1-based).
    public var blankBefore: Set<Int> = []
    /// Pixels between the two page slots.
    public var gap = 0.0
    /// Aspect-fit or stretch each page into its slot.
    public var fit: FitMode = .contain
    /// Pages pushed against the spine or centred in their slots.
    public var align: HorizontalAlignment = .spine
    /// The canvas colour.
    public var background: Color = .black
    /// The colour of blank dummy pages.
    public var blank: Color = .white
    /// Number a right-to-left book's files in visual order, last spread first.
    public var strip = false
    /// Whether the last page pairs (the default) or stands alone as a back cover.
    public var backCover: BackCoverMode = .paired
    /// Pairing by position only (the default), or also from the pages' pixels (SPEC §2).
    public var pairing: PairingMode = .static
    /// With automatic pairing, the confidence (0…1) a seam needs to be taken
    /// as a split: lower finds more splits and risks false ones.
    public var pairingThreshold = Double(SplitDetector.defaultThreshold) / 1000
    /// Cut every wide page into its two halves at the gutter (`--split-wide`); `nil` leaves wide pages whole.
    public var splitWide: SplitWideMode? = nil
    /// Cut each page to its content, dropping scanner borders (`--crop-borders`).
    public var cropBorders = false
    /// The most `--crop-borders` takes from any side, in percent of the page's width or height.
    public var cropLimit = 10
    /// Convert pages with an embedded ICC profile to sRGB (`--color-manage
    /// auto`, the default); `false` takes the stored values (`off`).
    public var colorManage = true
    /// A page whose header claims more pixels than this is refused before it
    /// is decoded, and so is a canvas larger than this.
    public var maxPixels = PageDecoder.defaultMaxPixels
    /// The spread files' format and its settings (`--format`, `--quality`,
    /// `--lossless`, `--compression`).
    public var encoding = SpreadEncoding()

    /// Options with every default.
    public init() {}

    /// Whether pages are cut before they are drawn (split, cropped, or both).
    var cutsPages: Bool { splitWide != nil || cropBorders }
    /// Whether the cuts are measured in the pages' pixels (not their headers alone).
    var cutsReadPixels: Bool { cropBorders || splitWide == .auto }

    /// Whether a plan with these options decodes pages (automatic pairing,
    /// `--split-wide auto`, `--crop-borders`); otherwise it reads headers only.
    package var readsPixels: Bool { pairing == .auto || cropBorders || splitWide == .auto }

    /// The values `--quality`, `--pairing-threshold` and `--crop-limit` take:
    /// the option table parses with them and ``validate()`` checks with them.
    static let qualities = 1...100, pairingThresholds = 0.0...1.0, cropLimits = 0...49

    /// ``pairingThreshold`` in thousandths, as the detector compares it.
    var pairingThresholdThousandths: Int { Int((pairingThreshold * 1000).rounded()) }

    /// The canvas size in pixels, with a derived side resolved.
    package var canvas: (width: Int, height: Int) {
        size.resolved(layout: layout, pageAspect: pageAspect, gap: gap)
    }

    /// The pure geometry inputs.
    var geometry: GeometryOptions {
        let canvas = canvas
        return GeometryOptions(canvasWidth: canvas.width, canvasHeight: canvas.height, layout: layout, gap: gap,
                               pageAspect: pageAspect, fit: fit, align: align)
    }

    /// Checks what parsing alone cannot, before any page is read or any
    /// pixel memory allocated.
    /// - Throws: ``MihirakiError`` with code `.usage` naming the option.
    package func validate() throws {
        guard maxPixels >= 1 else { throw MihirakiError(.usage, "--max-pixels must be at least 1") }
        // A derived canvas side includes the gap: a gap no canvas can hold is named before it.
        let gapMessage = "--gap must be at least 0 and less than the canvas width"
        guard gap >= 0, gap.isFinite else { throw MihirakiError(.usage, gapMessage) }
        let (canvasWidth, canvasHeight) = canvas
        guard canvasWidth > 0, canvasHeight > 0, canvasWidth <= 65535, canvasHeight <= 65535 else {
            throw MihirakiError(.usage, "--size must be between 1x1 and 65535x65535")
        }
        try Self.checkCanvas(width: canvasWidth, height: canvasHeight, maxPixels: maxPixels, what: "--size")
        guard gap < Double(canvasWidth) else { throw MihirakiError(.usage, gapMessage) }
        guard wideThreshold > 0, wideThreshold.isFinite else {
            throw MihirakiError(.usage, "--wide-threshold must be a positive number")
        }
        // A slot under one pixel would draw every page as nothing.
        let frames = SlotFrames(options: geometry)
        let slot = layout == .single ? frames.single : frames.left
        guard snap(slot.maxX) - snap(slot.minX) >= 1, snap(slot.maxY) - snap(slot.minY) >= 1 else {
            throw MihirakiError(.usage, "--page-aspect \(pageAspect) leaves page slots under one pixel on a "
                                + "\(canvasWidth)x\(canvasHeight) canvas")
        }
        guard Self.pairingThresholds.contains(pairingThreshold) else {
            throw MihirakiError(.usage, "--pairing-threshold must be \(Self.expected(Self.pairingThresholds))")
        }
        guard Self.cropLimits.contains(cropLimit) else {
            throw MihirakiError(.usage, "--crop-limit must be \(Self.expected(Self.cropLimits, of: "percent"))")
        }
        if let bad = soloPages.union(blankBefore).first(where: { $0 < 1 }) {
            throw MihirakiError(.usage, "page numbers start at 1 (got \(bad))")
        }
        try Self.check(encoding, width: canvasWidth, height: canvasHeight)
        try Self.checkMemory(encoding, width: canvasWidth, height: canvasHeight, seeThrough: !background.isOpaque,
                             what: "--size \(canvasWidth)x\(canvasHeight)")
    }

    /// Refuses a canvas whose one render would need more than
    /// ``SpreadFormat/renderMemory`` in its format (SPEC §6), before
    /// anything is read: the format's measured bytes per pixel.
    static func checkMemory(_ encoding: SpreadEncoding, width: Int, height: Int, seeThrough: Bool, what: String) throws {
        let format = encoding.format, lossless = encoding.lossless && format.hasLosslessOption
        let largest = format.largestCanvas(lossless: lossless, seeThrough: seeThrough)
        guard width * height > largest else { return }
        let kind = (lossless ? "lossless " : "") + format.name + (seeThrough ? " with a see-through background" : "")
        throw MihirakiError(.usage, "\(what) is too large for one \(kind) image within "
                            + "\(SpreadFormat.renderMemory >> 30) GiB of memory (at most \(largest) pixels)")
    }

    /// Refuses settings the format cannot take, and a format this build cannot write.
    static func check(_ encoding: SpreadEncoding, width: Int, height: Int) throws {
        guard qualities.contains(encoding.quality) else {
            throw MihirakiError(.usage, "--quality must be \(Self.expected(qualities)) (got \(encoding.quality))")
        }
        let format = encoding.format
        if let reason = format.unavailableReason {
            throw MihirakiError(.usage, "--format \(format.rawValue) is not available: \(reason)")
        }
        if encoding.lossless && !format.hasLosslessOption {
            let formats = SpreadFormat.allCases.filter(\.hasLosslessOption).map(\.rawValue)
            throw MihirakiError(.usage, "--lossless goes with --format \(listed(formats, "or"))")
        }
        guard max(width, height) <= format.maximumSide else {
            throw MihirakiError(.usage, "--size \(width)x\(height) is larger than \(format.rawValue) allows (\(format.maximumSide) pixels a side)")
        }
    }

    /// Refuses an image Mihiraki would draw (a spread, a contact sheet) that
    /// is larger than `maxPixels`, before its memory is allocated: the page
    /// rule (``PageDecoder/checkPixelLimit(width:height:maxPixels:)``) as a usage error naming `what`.
    static func checkCanvas(width: Int, height: Int, maxPixels: Int, what: String) throws {
        do {
            try PageDecoder.checkPixelLimit(width: width, height: height, maxPixels: maxPixels)
        } catch let error as CodecError {
            throw MihirakiError(.usage, "\(what) \(error.message)")
        }
    }

    /// The imposition inputs once the direction and cover are decided.
    func imposition(direction: ReadingDirection, cover: CoverMode) -> ImpositionOptions {
        ImpositionOptions(layout: layout, direction: direction, cover: cover, soloPages: soloPages,
                          blankBefore: blankBefore, strip: strip, backCover: backCover)
    }
}
