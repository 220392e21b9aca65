import CMihirakiCodecs
import MihirakiRaster

/// JPEG spreads through libjpeg-turbo: gray or RGB, never alpha.
enum JPEGSpreadEncoder: SpreadFormatEncoder {
    static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8] {
        precondition(image.channels == 1 || image.channels == 3, "flatten alpha before writing JPEG")
        return try SpreadEncoder.run({ pixels, buffer, error in
            mh_jpeg_encode(pixels, UInt32(image.width), UInt32(image.height), image.rowBytes, Int32(image.channels),
                           Int32(encoding.quality), &buffer, &error)
        }, image: image)
    }
}

extension SpreadFormat {
    /// Baseline JPEG, 4:2:0 (gray spreads: one component); no alpha.
    public static let jpeg = SpreadFormat(
        rawValue: "jpeg", name: "JPEG", fileExtension: "jpg", aliases: ["jpe", "jfif"], mimeType: "image/jpeg", hasAlpha: false,
        takesQuality: true, hasLosslessOption: false, writesGray: true, maximumSide: 65500,
        bytesPerPixel: (opaque: 6.5, seeThrough: 11, lossless: 6.5), encoder: JPEGSpreadEncoder.self)
}
