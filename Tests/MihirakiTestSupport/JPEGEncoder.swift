import CMihirakiFixtureCodecs
import Foundation
import MihirakiRaster

/// Writes JPEG files for test fixtures. Mihiraki only reads JPEG; the tests
/// need files with exactly the features they check (progressive, YCCK, Adobe
/// CMYK, EXIF).
public enum JPEGEncoder {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Encodes gray (1), RGB (3) or CMYK (4) samples.
    /// - Parameters:
    ///   - ycck: store CMYK as YCCK.
    ///   - adobeMarker: write the Adobe APP14 marker (callers pass inverted CMYK then).
    ///   - exif: an optional APP1 payload, starting with `Exif\0\0`.
    public static func encode(_ image: PixelBuffer, quality: Int = 90, progressive: Bool = false,
                              ycck: Bool = false, adobeMarker: Bool = false, exif: [UInt8]? = nil) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 200)
        let app1 = exif ?? []
        let status = image.pixels.withUnsafeBytes { raw in
            app1.withUnsafeBytes { marker in
                mh_fixture_jpeg_encode(raw.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes,
                                       Int32(image.channels), Int32(quality), progressive ? 1 : 0, ycck ? 1 : 0,
                                       adobeMarker ? 1 : 0, marker.count > 0 ? marker.baseAddress : nil, marker.count,
                                       &output, &size, &message)
            }
        }
        guard status == 0, let output else {
            throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                              as: UTF8.self))
        }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
