import CMihirakiCodecs
import MihirakiRaster

/// A file format spreads are written in, declared once, in its encoder's
/// file (`WebPSpreadEncoder.swift` declares ``webp``): its names, MIME type,
/// what it can hold, and the encoder. The CLI's and the server's values, the
/// server's content types and the option checks (`--lossless`, the largest
/// canvas, alpha) are derived from the declarations in ``allCases``.
public struct SpreadFormat: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The name the command line and the query take: `png`, `jpeg`, `webp`, `avif`.
    public let rawValue: String
    /// The format's name as help texts and errors write it: `PNG`, `WebP`.
    package let name: String
    /// Whether `--quality` applies (every lossy format).
    package let takesQuality: Bool
    /// The extension of the files: `png`, `jpg`, `webp`, `avif`.
    public let fileExtension: String
    /// Other names accepted for the format (`jpg` for JPEG).
    package let aliases: [String]
    /// The MIME type the server answers with.
    package let mimeType: String
    /// Whether the format can hold a see-through pixel.
    package let hasAlpha: Bool
    /// Whether `--lossless` applies (PNG is always lossless, JPEG never).
    package let hasLosslessOption: Bool
    /// Whether a gray spread is written as gray (one channel), not as RGB.
    package let writesGray: Bool
    /// The longest side the format can hold.
    package let maximumSide: Int
    /// Peak memory of drawing and writing one spread, in bytes per canvas
    /// pixel: the canvas and everything its encoder holds beside it,
    /// measured (`scripts/bench-memory`) and rounded up. `opaque` for an
    /// opaque background, `seeThrough` for one with alpha (an RGBA canvas,
    /// its straight copy, the encoder's alpha plane); lossless for
    /// `--lossless`. ``largestCanvas(lossless:seeThrough:)`` follows.
    package let bytesPerPixel: (opaque: Double, seeThrough: Double, lossless: Double)
    /// Why this build cannot write the format, or nil when it can.
    package var unavailableReason: String? { unavailable() }

    let encoder: any SpreadFormatEncoder.Type
    private let unavailable: @Sendable () -> String?

    init(rawValue: String, name: String, fileExtension: String, aliases: [String] = [], mimeType: String, hasAlpha: Bool,
         takesQuality: Bool, hasLosslessOption: Bool, writesGray: Bool, maximumSide: Int,
         bytesPerPixel: (opaque: Double, seeThrough: Double, lossless: Double),
         encoder: any SpreadFormatEncoder.Type, unavailable: @escaping @Sendable () -> String? = { nil }) {
        self.rawValue = rawValue
        self.name = name
        self.takesQuality = takesQuality
        self.fileExtension = fileExtension
        self.aliases = aliases
        self.mimeType = mimeType
        self.hasAlpha = hasAlpha
        self.hasLosslessOption = hasLosslessOption
        self.writesGray = writesGray
        self.maximumSide = maximumSide
        self.bytesPerPixel = bytesPerPixel
        self.encoder = encoder
        self.unavailable = unavailable
    }

    /// What one render may use: SPEC §6, no input (option values included)
    /// makes one render use more than about 1 GiB.
    package static let renderMemory = 1 << 30

    /// The most pixels a canvas may have for one render of this format to
    /// stay within ``renderMemory`` (100 MiB of it kept for the program,
    /// the decoders and the pages).
    package func largestCanvas(lossless: Bool, seeThrough: Bool) -> Int {
        let perPixel = lossless && hasLosslessOption ? max(bytesPerPixel.lossless, seeThrough ? bytesPerPixel.seeThrough : 0)
            : seeThrough ? bytesPerPixel.seeThrough : bytesPerPixel.opaque
        return Int(Double(Self.renderMemory - 100 << 20) / perPixel)
    }

    /// Every format spreads can be written in, the default first. One line per format.
    public static let allCases: [SpreadFormat] = [.png, .jpeg, .webp, .avif]

    /// "PNG, JPEG, WebP or AVIF" (with `conjunction`): the formats whose
    /// declaration `where` holds, as help texts list them.
    package static func names(where include: (SpreadFormat) -> Bool = { _ in true }, _ conjunction: String = "or") -> String {
        listed(allCases.filter(include).map(\.name), conjunction)
    }

    /// The format a name stands for: its name, extension or an alias, in any case.
    public init?(rawValue: String) {
        let lowered = rawValue.lowercased()
        guard let format = Self.allCases.first(where: {
            $0.rawValue == lowered || $0.fileExtension == lowered || $0.aliases.contains(lowered)
        }) else { return nil }
        self = format
    }

    /// The format of a file name's extension (`jpg` and `jpeg` are both JPEG).
    package init?(fileExtension: String) {
        let lowered = fileExtension.lowercased()
        guard let format = Self.allCases.first(where: { $0.fileExtension == lowered || $0.rawValue == lowered }) else {
            return nil
        }
        self = format
    }

    public var description: String { rawValue }
    public static func == (a: SpreadFormat, b: SpreadFormat) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
