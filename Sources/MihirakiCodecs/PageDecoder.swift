import CMihirakiCodecs
import MihirakiRaster

/// What a page's header says, read without decoding any pixels.
public struct PageHeader: Hashable, Sendable {
    package var format: ImageFormat
    /// Size as stored in the file.
    package var storedWidth: Int
    package var storedHeight: Int
    /// EXIF orientation (1–8); 1 when the file has none.
    package var orientation: Int
    /// True when the decoded samples will be gray (with or without alpha).
    package var isGray: Bool
    /// The header cannot say whether the picture is gray, and a decode can:
    /// a format decoded whole (WebP, AVIF, JPEG XL, GIF), whose rows come as
    /// gray when the decoded picture is.
    package var grayOnceDecoded = false
    /// A page drawn from parts (a PDF page for the rasteriser): the largest
    /// picture it draws, in that picture's own pixels (0 × 0 when none). The
    /// pixel limit holds for it as for the page.
    package var largestPartWidth = 0
    package var largestPartHeight = 0

    /// Width as displayed, after the EXIF orientation is applied.
    package var width: Int { ExifOrientation.swapsAxes(orientation) ? storedHeight : storedWidth }
    /// Height as displayed, after the EXIF orientation is applied.
    package var height: Int { ExifOrientation.swapsAxes(orientation) ? storedWidth : storedHeight }
}

/// Decodes pages of every readable ``ImageFormat`` into upright 8-bit
/// buffers. Each format is one ``PageFormatDecoder`` named by its
/// declaration; the format is told from the bytes, never from the file's name.
public enum PageDecoder {
    /// The default pixel limit per page (200 million; `--max-pixels` changes it).
    public static let defaultMaxPixels = 200_000_000

    /// Reads a page's header.
    /// - Throws: `CodecError` for unknown, unsupported or damaged data.
    public static func header(of bytes: [UInt8]) throws -> PageHeader {
        try open(bytes) { $0.header }
    }

    /// Decodes a page to gray, gray+alpha, RGB or RGBA samples (8 bits each),
    /// turned upright by its EXIF orientation. CMYK JPEGs come out as RGB.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - maxPixels: refuse, before allocating pixel memory, a page whose
    ///     header claims more pixels than this.
    ///   - colorManage: convert a page with an embedded ICC profile to sRGB;
    ///     `false` keeps the stored values.
    /// - Throws: `CodecError`.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels,
                              colorManage: Bool = true) throws -> PixelBuffer {
        if let plain = try decodePlainPNG(bytes, maxPixels: maxPixels, colorManage: colorManage) { return plain }
        return try open(bytes) { opened in
            let page = colorManage ? opened.colorManaged() : opened
            try checkPixelLimit(page.header, maxPixels: maxPixels)
            return try page.readAll().oriented(exif: page.header.orientation)
        }
    }

    /// Decodes a page row by row, so it can be resampled as it is read and is
    /// never whole in memory. `body` gets the upright size, the samples per
    /// pixel (as `decode` gives them: CMYK arrives as RGB) and `nextRow`,
    /// which writes the next row (top to bottom) into a buffer of
    /// `width × channels` bytes. Pages with an EXIF rotation or interlacing
    /// are decoded whole first and then handed out the same way.
    ///
    /// - Parameters:
    ///   - atLeast: shrink-on-load: the page may be decoded smaller
    ///     than stored, down to this upright size but never below it, where its
    ///     format allows (JPEG's DCT scaling); `nil` decodes at full size. The
    ///     pixel limit applies to the size the header claims.
    ///   - drawn: the size the page is drawn at; a page drawn at any size (a
    ///     PDF page for the rasteriser) is decoded at exactly this size.
    /// - Throws: `CodecError` from the header, the pixel limit or any row.
    public static func withRows<T>(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels, colorManage: Bool = true,
                                   atLeast: (width: Int, height: Int)? = nil, drawn: (width: Int, height: Int)? = nil,
                                   _ body: (_ width: Int, _ height: Int, _ channels: Int,
                                            _ nextRow: (UnsafeMutablePointer<UInt8>) throws -> Void) throws -> T) throws -> T {
        try withRows(bytes, maxPixels: maxPixels, colorManage: colorManage, atLeast: atLeast, drawn: drawn,
                     edges: nil, body)
    }

    /// ``withRows(_:maxPixels:colorManage:atLeast:drawn:_:)``, also filling
    /// `edges` from the same decode where the format can.
    package static func withRows<T>(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels, colorManage: Bool = true,
                                    atLeast: (width: Int, height: Int)? = nil, drawn: (width: Int, height: Int)? = nil,
                                    edges: EdgeRequest?,
                                    _ body: (_ width: Int, _ height: Int, _ channels: Int,
                                             _ nextRow: (UnsafeMutablePointer<UInt8>) throws -> Void) throws -> T) throws -> T {
        try open(bytes) { opened in
            try checkPixelLimit(opened.header, maxPixels: maxPixels)
            var page = opened
            if page.scalable, let drawn {
                // Drawn at exactly the size it takes on the canvas: never resampled.
                page = try page.reduced(toAtLeast: drawn.width, drawn.height)
            } else if let atLeast {
                let swaps = ExifOrientation.swapsAxes(opened.header.orientation)
                page = try page.reduced(toAtLeast: swaps ? atLeast.height : atLeast.width,
                                        swaps ? atLeast.width : atLeast.height)
            }
            try edges?.fill(from: page, fullHeight: opened.header.storedHeight)
            // A gray page is read as gray, unless an embedded profile is to be applied to its colour samples.
            if !colorManage || page.profile == nil { page = try page.settled() }
            if colorManage { page = page.colorManaged() }
            return try deliver(page, body)
        }
    }

    /// Hands `page`'s rows to `body`, upright: as they are read when it
    /// streams and needs no turning, else from the whole page.
    private static func deliver<T>(_ page: OpenedPage,
                                   _ body: (_ width: Int, _ height: Int, _ channels: Int,
                                            _ nextRow: (UnsafeMutablePointer<UInt8>) throws -> Void) throws -> T) throws -> T {
        let header = page.header
        if page.streams && header.orientation == 1 {
            return try body(header.width, header.height, page.channels, page.readRow)
        }
        let image = try page.readAll().oriented(exif: header.orientation)
        var line = 0
        return try image.pixels.withUnsafeBufferPointer { pixels in
            try body(image.width, image.height, image.channels) { row in
                row.update(from: pixels.baseAddress! + line * image.rowBytes, count: image.rowBytes)
                line += 1
            }
        }
    }

    /// Asks ``withRows(_:maxPixels:colorManage:atLeast:drawn:edges:_:)`` for
    /// the page's ``EdgeRows`` from the decoder's own data, so reading them
    /// costs no second decode. Filled before `body` runs, when the page's
    /// format offers them and the page is upright as stored.
    package final class EdgeRequest {
        /// The columns to sum, and the columns the strips keep one by one
        /// (``EdgeRows``), from the page's full height.
        let depth: (_ height: Int) -> Int
        let stripDepth: (_ height: Int) -> Int
        package private(set) var rows: EdgeRows?

        package init(depth: @escaping (_ height: Int) -> Int, stripDepth: @escaping (_ height: Int) -> Int = { _ in 0 }) {
            self.depth = depth
            self.stripDepth = stripDepth
        }

        func fill(from page: OpenedPage, fullHeight: Int) throws {
            guard page.header.orientation == 1, let read = page.edges else { return }
            rows = try read(depth(fullHeight), stripDepth(fullHeight))
        }
    }

    /// Opens the file with the right decoder, hands it to `body`, and always
    /// closes the decoder.
    package static func open<T>(_ bytes: [UInt8], _ body: (OpenedPage) throws -> T) throws -> T {
        guard let format = ImageFormat.sniff(bytes) else {
            throw CodecError(.unsupported, bytes.isEmpty ? "empty file" : "not an image Mihiraki reads (\(ImageFormat.readableNames))")
        }
        guard let decoder = format.decoder else {
            throw CodecError(.unsupported, "\(format.name) images are not supported (Mihiraki reads \(ImageFormat.readableNames))")
        }
        return try decoder.open(bytes, body)
    }

    /// Refuses a page without pixels, or above `maxPixels`, or drawing a
    /// picture above `maxPixels` (no limit when `nil`).
    /// - Throws: `CodecError` with code `.corrupt` or `.tooLarge`.
    package static func checkPixelLimit(_ header: PageHeader, maxPixels: Int?) throws {
        try checkPixelLimit(width: header.storedWidth, height: header.storedHeight, maxPixels: maxPixels)
        guard let maxPixels, header.largestPartWidth > 0, header.largestPartHeight > 0 else { return }
        let (w, h) = (header.largestPartWidth, header.largestPartHeight)
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        if overflow || pixels > maxPixels {
            throw CodecError(.tooLarge, "it draws a picture of \(w)×\(h), more than the \(maxPixels)-pixel limit (--max-pixels)")
        }
    }

    /// Refuses a `width × height` image without pixels, or above `maxPixels`
    /// (no limit when `nil`).
    /// - Throws: `CodecError` with code `.corrupt` or `.tooLarge`.
    package static func checkPixelLimit(width: Int, height: Int, maxPixels: Int?) throws {
        // No pixel to draw: refused here, so no resampler ever sees an empty side.
        guard width > 0, height > 0 else { throw CodecError(.corrupt, "the image is \(width)×\(height): it has no pixels") }
        guard let maxPixels else { return }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw CodecError(.tooLarge, "\(width)×\(height) is more than the \(maxPixels)-pixel limit (--max-pixels)")
        }
    }
}

extension CodecError {
    /// The C shim's status and message.
    init(_ error: mh_error) {
        let text = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let code: Code
        switch Int(error.code) {
        case Int(MH_ERR_UNSUPPORTED): code = .unsupported
        case Int(MH_ERR_NOMEM): code = .outOfMemory
        default: code = .corrupt
        }
        self.init(code, text.isEmpty ? "unreadable image data" : text)
    }
}
