import CMihirakiCodecs
import MihirakiRaster

/// WebP spreads through libwebp. WebP has no gray layout: lossy gray
/// spreads go straight to luma with neutral chroma; lossless ones as RGB.
enum WebPSpreadEncoder: SpreadFormatEncoder {
    static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8] {
        let source = image.channels == 1 && encoding.lossless ? image.prepared(forCanvasChannels: 3, over: .black) : image
        return try SpreadEncoder.run({ pixels, buffer, error in
            mh_webp_encode(pixels, UInt32(source.width), UInt32(source.height), source.rowBytes, Int32(source.channels),
                           Int32(encoding.quality), encoding.lossless ? 1 : 0, &buffer, &error)
        }, image: source)
    }
}

extension SpreadFormat {
    /// Lossy or lossless WebP.
    public static let webp = SpreadFormat(
        rawValue: "webp", name: "WebP", fileExtension: "webp", aliases: [], mimeType: "image/webp", hasAlpha: true,
        takesQuality: true, hasLosslessOption: true, writesGray: false, maximumSide: 16383,
        bytesPerPixel: (opaque: 6.5, seeThrough: 28, lossless: 30), encoder: WebPSpreadEncoder.self)
}
