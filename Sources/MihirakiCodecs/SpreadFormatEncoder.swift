import CMihirakiCodecs
import MihirakiRaster

/// One format's writer: the same call for every format, so adding a format
/// is its encoder file (with its ``SpreadFormat`` declaration) and one line
/// in ``SpreadFormat/allCases``.
protocol SpreadFormatEncoder: Sendable {
    /// Encodes `image` (1, 3 or 4 channels; alpha straight, not premultiplied).
    static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8]
}
