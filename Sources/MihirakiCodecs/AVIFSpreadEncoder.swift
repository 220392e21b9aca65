import CMihirakiCodecs
import MihirakiRaster

/// AVIF spreads through libavif and libaom; gray spreads stay one plane (4:0:0).
enum AVIFSpreadEncoder: SpreadFormatEncoder {
    static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8] {
        try SpreadEncoder.run({ pixels, buffer, error in
            mh_avif_encode(pixels, UInt32(image.width), UInt32(image.height), image.rowBytes, Int32(image.channels),
                           Int32(encoding.quality), encoding.lossless ? 1 : 0, &buffer, &error)
        }, image: image)
    }
}

extension SpreadFormat {
    /// Lossy or lossless AVIF.
    public static let avif = SpreadFormat(
        rawValue: "avif", name: "AVIF", fileExtension: "avif", aliases: [], mimeType: "image/avif", hasAlpha: true,
        takesQuality: true, hasLosslessOption: true, writesGray: true, maximumSide: 65536,
        bytesPerPixel: (opaque: 18, seeThrough: 20, lossless: 30), encoder: AVIFSpreadEncoder.self,
        unavailable: { mh_avif_unavailable().map { String(cString: $0) } })
}
