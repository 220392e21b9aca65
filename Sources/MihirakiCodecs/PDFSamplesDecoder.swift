/// A PDF page's picture as Mihiraki's PDF reader hands it over when it is not
/// a JPEG: its samples, already 8-bit gray or RGB, with alpha from a soft mask
/// (inflated, predictors undone, palettes and `/Decode` applied), behind a 20-byte header: `MHPDFPX1`, then
/// width, height and channels as little-endian 32-bit numbers. Rows stream
/// straight from the bytes.
package enum PDFSamplesDecoder: PageFormatDecoder {
    static let magic = Array("MHPDFPX1".utf8)
    static let headerSize = 20

    /// The container's header alone: enough for ``PageDecoder/header(of:)``.
    package static func header(width: Int, height: Int, channels: Int) -> [UInt8] {
        magic + InnerHeader.fields([width, height, channels])
    }

    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        guard bytes.count >= headerSize else { throw CodecError(.corrupt, "a PDF picture's samples are cut short") }
        let width = InnerHeader.field(bytes, 0), height = InnerHeader.field(bytes, 1), channels = InnerHeader.field(bytes, 2)
        guard width > 0, height > 0, (1...4).contains(channels) else {
            throw CodecError(.corrupt, "a PDF picture's samples do not match their size")
        }
        let header = PageHeader(format: .pdfSamples, storedWidth: width, storedHeight: height, orientation: 1,
                                isGray: channels <= 2)
        var line = 0
        let rowBytes = width * channels
        return try body(PageDecoder.OpenedPage(header: header, channels: channels, streams: true) { row in
            // A header read alone (for the page's size) has no rows.
            guard line < height, bytes.count - headerSize == width * height * channels else {
                throw CodecError(.corrupt, "a PDF picture's samples do not match their size")
            }
            bytes.withUnsafeBufferPointer { row.update(from: $0.baseAddress! + headerSize + line * rowBytes, count: rowBytes) }
            line += 1
        })
    }
}

extension ImageFormat {
    /// A PDF page's picture samples (``PDFSamplesDecoder``): made only by
    /// Mihiraki's PDF reader, never a file of a book, so never named to users.
    package static let pdfSamples = ImageFormat(
        id: "pdf-samples", name: "PDF picture", extensions: [], mimeType: "application/octet-stream",
        signatures: [.bytes(PDFSamplesDecoder.magic)], decoder: PDFSamplesDecoder.self,
        capabilities: Capabilities(alpha: true, lossless: true, gray: true, streamed: true, largestSide: 1_000_000))
}

/// The header of the inner formats the PDF reader hands over: an 8-byte
/// magic, then little-endian 32-bit numbers.
enum InnerHeader {
    /// `values` as little-endian 32-bit numbers.
    static func fields(_ values: [Int]) -> [UInt8] {
        values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    }

    /// Number `k` after the magic; the caller checked the bytes are there.
    static func field(_ bytes: [UInt8], _ k: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[8 + 4 * k + $1]) << (8 * $1) }
    }
}
