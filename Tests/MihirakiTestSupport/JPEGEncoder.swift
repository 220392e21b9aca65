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

    /// A page of noise (``SeededGenerator`` from `seed`) encoded at quality
    /// 100 and then ``quantized(_:everywhere:)`` with 65,535: its
    /// coefficients stand for levels far past any a sample holds.
    public static func farPastAnyLevel(width: Int, height: Int, channels: Int, seed: UInt64) throws -> [UInt8] {
        var noise = PixelBuffer(width: width, height: height, channels: channels)
        var generator = SeededGenerator(seed: seed)
        for i in noise.pixels.indices { noise.pixels[i] = UInt8.random(in: 0...255, using: &generator) }
        return quantized(try encode(noise, quality: 100), everywhere: 65535)
    }

    /// `jpeg` with every quantization table rewritten as a 16-bit table of
    /// `value` in each of its 64 places: a file libjpeg reads whole, whose
    /// coefficients then stand for levels far past what a sample can hold
    /// (its decoder clamps each sample; nothing else has to).
    public static func quantized(_ jpeg: [UInt8], everywhere value: UInt16) -> [UInt8] {
        var out = Array(jpeg.prefix(2)), i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1], length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if marker == 0xDA { break }  // the scan: the rest is copied as it is
            guard marker == 0xDB else {
                out += jpeg[i..<(i + 2 + length)]
                i += 2 + length
                continue
            }
            var tables: [UInt8] = [], j = i + 4
            while j < i + 2 + length {
                let precision = jpeg[j] >> 4, slot = jpeg[j] & 15
                tables.append(0x10 | slot)
                for _ in 0..<64 { tables += [UInt8(value >> 8), UInt8(value & 0xFF)] }
                j += 1 + 64 * (precision == 0 ? 1 : 2)
            }
            out += [0xFF, 0xDB, UInt8((tables.count + 2) >> 8), UInt8((tables.count + 2) & 0xFF)] + tables
            i += 2 + length
        }
        return out + jpeg[i...]
    }
}
