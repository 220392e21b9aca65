import CMihirakiCodecs
import MihirakiRaster

/// Writes PNG files: 8 bits per sample, one IDAT, no time stamp or other
/// varying chunk, so the same pixels and settings always give the same bytes.
/// Rows are filtered by Mihiraki and deflated by libdeflate, several times
/// faster than zlib for the same size (see README, Performance).
public enum PNGEncoder {
    /// Speed against size.
    public enum Compression: String, CaseIterable, Sendable {
        /// libdeflate level 1, Up filter on every row.
        case fast
        /// libdeflate level 1, the one filter that deflates a sample of rows smallest.
        case `default`
        /// libdeflate level 12, the best filter chosen per row.
        case small

        var level: Int32 {
            switch self {
            case .fast, .default: return 1
            case .small: return 12
            }
        }

        /// The C writer's filter code: 2 Up, 5 per-row adaptive, 6 sampled per image.
        var filter: Int32 {
            switch self {
            case .fast: return 2
            case .default: return 6
            case .small: return 5
            }
        }
    }

    /// Encodes `image` (1–4 channels) as PNG bytes.
    /// - Throws: `CodecError` if memory runs out.
    public static func encode(_ image: PixelBuffer, compression: Compression = .default) throws -> [UInt8] {
        var buffer = mh_buffer()
        var error = mh_error()
        let status = image.pixels.withUnsafeBytes { raw in
            mh_png_encode_deflate(raw.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes,
                                  Int32(image.channels), compression.level, compression.filter, &buffer, &error)
        }
        guard status == MH_OK else { throw CodecError(error) }
        defer { mh_buffer_free(&buffer) }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }
}

/// Writes JPEG files; Mihiraki only reads JPEG, this exists to make test
/// fixtures and benchmark corpora with exactly the features they need.
public enum JPEGEncoder {
    /// Encodes gray (1), RGB (3) or CMYK (4) samples.
    /// - Parameters:
    ///   - ycck: store CMYK as YCCK.
    ///   - adobeMarker: write the Adobe APP14 marker (callers pass inverted CMYK then).
    ///   - exif: an optional APP1 payload, starting with `Exif\0\0`.
    public static func encode(_ image: PixelBuffer, quality: Int = 90, progressive: Bool = false,
                              ycck: Bool = false, adobeMarker: Bool = false, exif: [UInt8]? = nil) throws -> [UInt8] {
        var buffer = mh_buffer()
        var error = mh_error()
        let app1 = exif ?? []
        let status = image.pixels.withUnsafeBytes { raw in
            app1.withUnsafeBytes { marker in
                mh_jpeg_encode(raw.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes,
                               Int32(image.channels), Int32(quality), progressive ? 1 : 0, ycck ? 1 : 0,
                               adobeMarker ? 1 : 0, marker.count > 0 ? marker.baseAddress : nil, marker.count,
                               &buffer, &error)
            }
        }
        guard status == MH_OK else { throw CodecError(error) }
        defer { mh_buffer_free(&buffer) }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }
}
