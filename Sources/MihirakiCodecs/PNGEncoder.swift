import CMihirakiCodecs
import MihirakiRaster

/// How hard the PNG writer works for smaller files.
public enum PNGCompression: String, CaseIterable, Sendable {
    /// Fastest: no LZ77 search. Per-row filters chosen with SIMD, one deflate
    /// block with Huffman codes built for the image, runs of zero residuals as
    /// matches. Several times faster than `default`, for somewhat larger files.
    case fast
    /// libdeflate level 1 and the one filter that deflates a sample of rows smallest.
    case `default`
    /// Smallest: libdeflate level 12 and the best filter chosen per row.
    case small

    /// libdeflate's level and the filter rule, for the two settings that deflate with it.
    var deflate: (level: Int32, filter: mh_png_filter)? {
        switch self {
        case .fast: return nil
        case .default: return (1, MH_PNG_FILTER_SAMPLED)
        case .small: return (12, MH_PNG_FILTER_ADAPTIVE)
        }
    }
}

/// Writes PNG files: 8 bits per sample, one IDAT, no time stamp or other
/// varying chunk, so the same pixels and settings always give the same bytes.
/// Rows are filtered by Mihiraki and deflated by libdeflate, several times
/// faster than zlib for the same size (see the README's Performance section).
public enum PNGEncoder {
    /// Encodes `image` (1–4 channels) as PNG bytes.
    /// - Throws: `CodecError` if memory runs out.
    public static func encode(_ image: PixelBuffer, compression: PNGCompression = .default) throws -> [UInt8] {
        guard let (level, filter) = compression.deflate else { return try encodeFast(image, reference: false) }
        return try SpreadEncoder.run({ pixels, buffer, error in
            mh_png_encode_deflate(pixels, UInt32(image.width), UInt32(image.height), image.rowBytes,
                                  Int32(image.channels), level, filter, &buffer, &error)
        }, image: image)
    }

    /// The `fast` writer; `reference` takes its scalar twin, which must give the same bytes.
    package static func encodeFast(_ image: PixelBuffer, reference: Bool) throws -> [UInt8] {
        try SpreadEncoder.run({ pixels, buffer, error in
            mh_png_encode_fast(pixels, UInt32(image.width), UInt32(image.height), image.rowBytes,
                               Int32(image.channels), reference ? 1 : 0, &buffer, &error)
        }, image: image)
    }
}

extension PNGEncoder: SpreadFormatEncoder {
    static func encode(_ image: PixelBuffer, with encoding: SpreadEncoding) throws -> [UInt8] {
        try encode(image, compression: encoding.compression)
    }
}

extension SpreadFormat {
    /// Lossless and exact; the default.
    public static let png = SpreadFormat(
        rawValue: "png", name: "PNG", fileExtension: "png", aliases: [], mimeType: "image/png", hasAlpha: true,
        takesQuality: false, hasLosslessOption: false, writesGray: true, maximumSide: 65535,
        bytesPerPixel: (opaque: 7.5, seeThrough: 10, lossless: 7.5), encoder: PNGEncoder.self)
}
