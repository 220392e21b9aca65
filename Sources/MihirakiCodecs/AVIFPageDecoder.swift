import CMihirakiCodecs

/// AVIF through libavif: 8/10/12-bit, any subsampling, monochrome (as gray),
/// alpha; the first image of a sequence; `irot`/`imir` applied as the
/// equivalent EXIF orientation.
enum AVIFPageDecoder: PageFormatDecoder {
    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        // The caller checks the size against its limit before any pixel is
        // decoded; libavif keeps its own (larger) limit for the parse.
        try withReader(bytes, mh_avif_info(), open: mh_avif_open, close: mh_avif_close) { reader, info in
            var error = mh_error()
            let width = Int(info.width), height = Int(info.height)
            let alpha = info.has_alpha != 0, gray = info.monochrome != 0
            let decoded = alpha ? 4 : 3, delivered = gray ? (alpha ? 2 : 1) : decoded
            let header = PageHeader(format: .avif, storedWidth: width, storedHeight: height,
                                    orientation: orientation(rotation: Int(info.rotation), mirror: Int(info.mirror)),
                                    isGray: gray)
            let profile = copied(info.icc, count: info.icc_size)
            return try body(.whole(header: header, channels: delivered, profile: profile) { pixels, stride in
                if !gray {
                    guard mh_avif_read(reader, pixels, stride, Int32(decoded), &error) == MH_OK else { throw CodecError(error) }
                    return
                }
                // Monochrome comes out of libavif as R = G = B: keep one sample (and alpha).
                var rgb = [UInt8](repeating: 0, count: width * height * decoded)
                guard mh_avif_read(reader, &rgb, width * decoded, Int32(decoded), &error) == MH_OK else {
                    throw CodecError(error)
                }
                for i in 0..<width * height {
                    pixels[i * delivered] = rgb[i * decoded]
                    if alpha { pixels[i * delivered + 1] = rgb[i * decoded + 3] }
                }
            })
        }
    }

    /// The EXIF orientation that does what `irot` (quarter turns
    /// anticlockwise) followed by `imir` (0: top and bottom exchanged, 1: left
    /// and right) do.
    static func orientation(rotation: Int, mirror: Int) -> Int {
        let table: [[Int]] = [[1, 4, 2], [8, 5, 7], [3, 2, 4], [6, 7, 5]]
        return table[rotation & 3][mirror < 0 ? 0 : (mirror == 0 ? 1 : 2)]
    }
}

extension ImageFormat {
    /// AVIF pages, read by ``AVIFPageDecoder``.
    package static let avif = ImageFormat(
        id: "avif", name: "AVIF", extensions: ["avif"], mimeType: "image/avif",
        signatures: ["avif", "avis"].map { Signature((4, Array("ftyp".utf8)), (8, Array($0.utf8))) }, decoder: AVIFPageDecoder.self,
        capabilities: Capabilities(alpha: true, lossless: true, gray: true, streamed: false, largestSide: 65536))
}
