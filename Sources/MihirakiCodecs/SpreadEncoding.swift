import CMihirakiCodecs
import MihirakiRaster

/// How a spread becomes bytes: the format and its settings.
public struct SpreadEncoding: Sendable, Hashable {
    /// The file format.
    public var format: SpreadFormat = .png
    /// Quality of the lossy formats, 1–100; with `lossless` WebP, the effort.
    public var quality = 85
    /// WebP and AVIF without loss.
    public var lossless = false
    /// The PNG writer's speed against size.
    public var compression: PNGCompression = .default

    /// PNG, quality 85, default compression.
    public init() {}
}
