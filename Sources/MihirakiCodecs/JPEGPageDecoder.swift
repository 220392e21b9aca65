import CMihirakiCodecs
import MihirakiRaster

/// JPEG through libjpeg-turbo: baseline, progressive, gray, YCbCr, CMYK and
/// YCCK (Adobe-inverted or not), EXIF orientation; rows stream.
enum JPEGPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        try withReader(bytes, mh_jpeg_info(), open: mh_jpeg_open, close: mh_jpeg_close) { reader, info in
            var error = mh_error()
            var orientation = 1
            if let exif = info.exif, info.exif_size > 0 {
                orientation = ExifOrientation.parse(Array(UnsafeBufferPointer(start: exif, count: info.exif_size))) ?? 1
            }
            let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
            let profile = copied(info.icc, count: info.icc_size)
            let header = PageHeader(format: .jpeg, storedWidth: width, storedHeight: height,
                                    orientation: orientation, isGray: channels == 1)
            let reduce: (Int, Int) throws -> (width: Int, height: Int) = { minWidth, minHeight in
                var reducedWidth: UInt32 = 0, reducedHeight: UInt32 = 0
                guard mh_jpeg_reduce(reader, UInt32(minWidth), UInt32(minHeight), &reducedWidth, &reducedHeight,
                                     &error) == MH_OK else { throw CodecError(error) }
                return (Int(reducedWidth), Int(reducedHeight))
            }
            guard Int(info.color_model) == Int(MH_JPEG_CMYK) else {
                var opened = PageDecoder.OpenedPage(header: header, channels: channels, streams: true,
                                                    profile: profile, reduce: reduce) { row in
                    guard mh_jpeg_read_row(reader, row, &error) == MH_OK else { throw CodecError(error) }
                }
                opened.edges = { depth, stripDepth in
                    var edges = PageDecoder.EdgeRows(depth: depth, left: [Int32](repeating: 0, count: height),
                                                     right: [Int32](repeating: 0, count: height), stripDepth: stripDepth)
                    var chroma = [Int32](repeating: 0, count: channels == 1 ? 0 : 4 * height), hasChroma: Int32 = 0
                    let withStrips = PageDecoder.EdgeRows.hasStrips(width: width, stripDepth: stripDepth)
                    var strips = [Int32](repeating: 0, count: withStrips ? 2 * height * stripDepth : 0)
                    let status = chroma.withUnsafeMutableBufferPointer { planes in
                        strips.withUnsafeMutableBufferPointer { strips in
                            mh_jpeg_edges(reader, UInt32(depth), &edges.left, &edges.right, planes.baseAddress, &hasChroma,
                                          UInt32(stripDepth), withStrips ? strips.baseAddress : nil, &error)
                        }
                    }
                    if status == MH_ERR_UNSUPPORTED { return nil }
                    guard status == MH_OK else { throw CodecError(error) }
                    if hasChroma != 0 { edges.chroma = (0..<4).map { Array(chroma[($0 * height)..<(($0 + 1) * height)]) } }
                    if withStrips {
                        let plane = height * stripDepth
                        edges.strips = [Array(strips[0..<plane]), Array(strips[plane..<(2 * plane)])]
                    }
                    return edges
                }
                return try body(opened)
            }
            // CMYK rows are read into a buffer and converted to RGB: through
            // the embedded CMYK profile when colour-managed, by the naive
            // formula otherwise (or when the profile is not a CMYK one).
            let inverted = info.adobe_marker != 0
            var cmyk = [UInt8](repeating: 0, count: width * 4)
            func page(_ convert: @escaping (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void) -> PageDecoder.OpenedPage {
                PageDecoder.OpenedPage(header: header, channels: 3, streams: true) { row in
                    try cmyk.withUnsafeMutableBufferPointer { buffer in
                        guard mh_jpeg_read_row(reader, buffer.baseAddress, &error) == MH_OK else { throw CodecError(error) }
                        convert(UnsafePointer(buffer.baseAddress!), row)
                    }
                }
            }
            var opened = page { cmykRowToRGB($0, $1, count: width, adobeInverted: inverted) }
            if let profile, let transform = ColorProfiles.cmykTransform(for: profile, inverted: inverted) {
                opened.managed = { page { mh_color_transform_convert(transform, $0, $1, width) } }
            }
            return try body(opened)
        }
    }

    /// CMYK samples to RGB. Files with an Adobe APP14 marker store CMYK
    /// inverted (Photoshop's convention), so there `R = C·K/255`; otherwise
    /// `R = (255−C)·(255−K)/255`. Rounded to nearest.
    package static func cmykToRGB(_ cmyk: PixelBuffer, adobeInverted: Bool) -> PixelBuffer {
        precondition(cmyk.channels == 4, "CMYK has four samples per pixel")
        return PixelBuffer(width: cmyk.width, height: cmyk.height, channels: 3) { out in
            cmyk.pixels.withUnsafeBufferPointer { src in
                cmykRowToRGB(src.baseAddress!, out.baseAddress!, count: cmyk.width * cmyk.height,
                             adobeInverted: adobeInverted)
            }
        }
    }

    static func cmykRowToRGB(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int,
                             adobeInverted: Bool) {
        for i in 0..<count {
            var k = Int(src[4 * i + 3])
            if !adobeInverted { k = 255 - k }
            for j in 0..<3 {
                var c = Int(src[4 * i + j])
                if !adobeInverted { c = 255 - c }
                dst[3 * i + j] = UInt8((c * k + 127) / 255)
            }
        }
    }
}

extension ImageFormat {
    /// JPEG pages, read by ``JPEGPageDecoder``.
    package static let jpeg = ImageFormat(
        id: "jpeg", name: "JPEG", extensions: ["jpg", "jpeg", "jpe", "jfif"], mimeType: "image/jpeg",
        signatures: [.bytes([0xFF, 0xD8, 0xFF])], decoder: JPEGPageDecoder.self,
        capabilities: Capabilities(alpha: false, lossless: false, gray: true, streamed: true, largestSide: 65535))
}
