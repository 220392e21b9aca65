import CMihirakiCodecs
import MihirakiRaster

extension PageDecoder {
    /// The libdeflate fast path for plain PNGs; `nil` when it declines the
    /// file (libpng then decodes it, and reports any damage), and, with
    /// `colorManage`, for a PNG with an embedded profile, which libpng reads.
    static func decodePlainPNG(_ bytes: [UInt8], maxPixels: Int, colorManage: Bool = false) throws -> PixelBuffer? {
        try bytes.withUnsafeBytes { raw in
            var width: UInt32 = 0, height: UInt32 = 0, channels: Int32 = 0, hasProfile: Int32 = 0
            guard mh_png_plain_probe(raw.baseAddress, raw.count, &width, &height, &channels, &hasProfile) == MH_OK,
                  !(colorManage && hasProfile != 0) else { return nil }
            try checkPixelLimit(width: Int(width), height: Int(height), maxPixels: maxPixels)
            var declined = false
            let image = PixelBuffer(width: Int(width), height: Int(height), channels: Int(channels)) { out in
                declined = mh_png_plain_decode(raw.baseAddress, raw.count, out.baseAddress,
                                               Int(width) * Int(channels)) != MH_OK
                if declined { out.update(repeating: 0) }
            }
            return declined ? nil : image
        }
    }
}
