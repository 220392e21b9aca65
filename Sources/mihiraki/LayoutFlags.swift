import ArgumentParser
import Mihiraki

/// The flags `render` and `plan` share: everything that decides what is drawn
/// and how it is written (`plan` takes the format too, so its manifest names
/// the same files `render` writes).
struct LayoutFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Canvas size of every image; xH or Wx derives the other side from the spread's natural aspect (thumbnails).", valueName: "WxH"))
    var size: String = "2048x1536"

    @Option(help: "spread (two pages per image) or single (one page per image).")
    var layout: LayoutMode = .spread

    @Option(help: "Reading direction: ltr, rtl, or auto (left-to-right unless the book says otherwise).")
    var direction: DirectionFlag = .auto

    @Option(help: "alone (default): page 1 is a lone recto, [x|1] [2|3]; paired: [1|2] [3|4].")
    var cover: CoverMode?

    @Option(name: .customLong("page-aspect"), help: ArgumentHelp("Aspect of every page slot.", valueName: "AxB"))
    var pageAspect: String = "771x1200"

    @Option(name: .customLong("wide-threshold"), help: ArgumentHelp("A page is wide (shown alone across the spread) when width/height is above this.", valueName: "R"))
    var wideThreshold: Double = 1.0

    @Option(help: ArgumentHelp("Show page P alone with a blank partner (repeatable).", valueName: "P"))
    var solo: [Int] = []

    @Option(name: .customLong("blank-before"), help: ArgumentHelp("Insert a blank page before page P (repeatable).", valueName: "P"))
    var blankBefore: [Int] = []

    @Option(help: ArgumentHelp("Pixels between the two page slots.", valueName: "N"))
    var gap: Double = 0

    @Option(help: "contain (aspect-fit) or stretch (fill the slot).")
    var fit: FitMode = .contain

    @Option(help: "spine (pages meet at the gutter) or center (centred in their slots).")
    var align: HorizontalAlignment = .spine

    @Option(help: ArgumentHelp("Canvas colour: #RRGGBB, #RRGGBBAA, a CSS name or transparent.", valueName: "COLOR"))
    var background: String = "#000000"

    @Option(help: ArgumentHelp("Colour of blank dummy pages.", valueName: "COLOR"))
    var blank: String = "#FFFFFF"

    @Flag(help: "Write a right-to-left book in visual order, last spread first.")
    var strip = false

    @Option(name: .customLong("color-manage"), help: "auto: convert pages with an embedded ICC profile to sRGB; off: take the stored values.")
    var colorManage: ColorManageFlag = .auto

    @Option(name: .customLong("max-pixels"), help: ArgumentHelp("Refuse pages whose header claims more pixels than this.", valueName: "N"))
    var maxPixels: Int = LayoutOptions().maxPixels

    @Option(help: "File format of the spreads and the contact sheet: png, jpeg, webp or avif.")
    var format: SpreadFormat = .png

    @Option(help: ArgumentHelp("Quality of JPEG, WebP and AVIF, 1-100 (with --lossless WebP: the effort).", valueName: "Q"))
    var quality: Int = 85

    @Flag(help: "Write WebP or AVIF without loss.")
    var lossless = false

    @Option(help: "PNG compression: fast, default or small.")
    var compression: PNGCompression = .default

    /// The library's options, or a usage error naming the bad value.
    func layoutOptions() throws -> LayoutOptions {
        var options = LayoutOptions()
        guard let canvas = CanvasSize(parsing: size) else {
            throw ValidationError("--size must look like 2048x1536, x300 or 400x (got \(size))")
        }
        options.size = canvas
        options.layout = layout
        options.direction = direction.choice
        options.cover = cover
        guard let aspect = PageAspect(parsing: pageAspect) else {
            throw ValidationError("--page-aspect must look like 771x1200 (got \(pageAspect))")
        }
        options.pageAspect = aspect
        options.wideThreshold = wideThreshold
        options.soloPages = Set(solo)
        options.blankBefore = Set(blankBefore)
        options.gap = gap
        options.fit = fit
        options.align = align
        guard let backgroundColor = Color(parsing: background) else {
            throw ValidationError("--background: unknown colour \(background)")
        }
        guard let blankColor = Color(parsing: blank) else {
            throw ValidationError("--blank: unknown colour \(blank)")
        }
        options.background = backgroundColor
        options.blank = blankColor
        options.strip = strip
        options.maxPixels = maxPixels
        options.colorManage = colorManage == .auto
        options.encoding.format = format
        options.encoding.quality = quality
        options.encoding.lossless = lossless
        options.encoding.compression = compression
        try options.validate()
        return options
    }
}

extension LayoutMode: ExpressibleByArgument {}
extension CoverMode: ExpressibleByArgument {}
extension FitMode: ExpressibleByArgument {}
extension HorizontalAlignment: ExpressibleByArgument {}
extension DirectionFlag: ExpressibleByArgument {}
extension ColorManageFlag: ExpressibleByArgument {}
extension SpreadFormat: ExpressibleByArgument {}

/// `--color-manage`.
enum ColorManageFlag: String, CaseIterable {
    case auto, off
}

/// `--direction`: a direction, or `auto` for the book's own.
enum DirectionFlag: String, CaseIterable {
    case ltr, rtl, auto

    var choice: ReadingDirection? { ReadingDirection(rawValue: rawValue) }
}
extension PNGCompression: ExpressibleByArgument {}
