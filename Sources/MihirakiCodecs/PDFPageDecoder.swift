#if Poppler
import CMihirakiPoppler
#endif

/// A PDF page that is not one picture (vector art, text, several pictures),
/// handed over by Mihiraki's PDF reader as a one-page PDF file and rasterised
/// by poppler at exactly the size it is drawn: the page is never resampled
/// twice. Its stored size is the page box in points, as the reader measured
/// it (so reading the header loads no PDF); ``PageDecoder`` asks it for the
/// drawn size through shrink-on-load, which for this format means "draw at
/// exactly this size". Built with the package trait `Poppler`; without it
/// such a page fails in one line saying this build cannot draw it.
package enum PDFPageDecoder: PageFormatDecoder {
    /// The first bytes of a page handed over: `MHPDFPG1`. A PDF file that is
    /// a page of a folder (or named `.png`) is not one.
    package static let magic = Array("MHPDFPG1".utf8)
    static let headerSize = 24

    /// A page handed over: the magic, the page's size in points (rounded, at
    /// least 1) and the size of the largest picture it draws, as four
    /// little-endian 32-bit numbers, then the one-page PDF (none when only the
    /// header is asked for).
    package static func page(width: Double, height: Double, largestPart: (width: Int, height: Int),
                             document: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        magic + InnerHeader.fields([max(1, Int(width.rounded())), max(1, Int(height.rounded())),
                                    largestPart.width, largestPart.height]) + document
    }

    static func open<T>(_ bytes: [UInt8], _ body: (PageDecoder.OpenedPage) throws -> T) throws -> T {
        #if Poppler
        guard bytes.count >= headerSize, InnerHeader.field(bytes, 0) >= 1, InnerHeader.field(bytes, 1) >= 1 else {
            throw CodecError(.corrupt, "a PDF page handed over without its size")
        }
        var header = PageHeader(format: .pdfPage, storedWidth: InnerHeader.field(bytes, 0),
                                storedHeight: InnerHeader.field(bytes, 1), orientation: 1, isGray: false)
        header.largestPartWidth = InnerHeader.field(bytes, 2)
        header.largestPartHeight = InnerHeader.field(bytes, 3)
        var size = (width: header.storedWidth, height: header.storedHeight)
        var image: [UInt8]?
        var line = 0
        var page = PageDecoder.OpenedPage(header: header, channels: 3, streams: true) { row in
            let stride = size.width * 3
            if image == nil {
                var failure = [CChar](repeating: 0, count: 512)
                image = [UInt8](repeating: 0, count: stride * size.height)
                let drawn = image!.withUnsafeMutableBufferPointer { pixels in
                    bytes.withUnsafeBufferPointer {
                        mh_poppler_render($0.baseAddress! + headerSize, $0.count - headerSize, Int32(size.width),
                                          Int32(size.height), pixels.baseAddress, stride, &failure, failure.count)
                    }
                }
                guard drawn == 0 else { throw CodecError(drawn == -2 ? .unsupported : .corrupt, text(failure)) }
            }
            guard line < size.height else { throw CodecError(.corrupt, "a PDF page has no more rows") }
            image!.withUnsafeBufferPointer { row.update(from: $0.baseAddress! + line * stride, count: stride) }
            line += 1
        }
        page.scalable = true
        page.reduce = { w, h in
            size = (max(1, w), max(1, h))
            return size
        }
        return try body(page)
        #else
        throw CodecError(.unsupported, "this page is not one picture, and this build of Mihiraki has no PDF rasteriser (the package trait Poppler is off)")
        #endif
    }

    private static func text(_ message: [CChar]) -> String {
        let text = String(terminated: message)
        return text.isEmpty ? "poppler cannot draw this page" : text
    }
}

extension ImageFormat {
    /// A PDF page for the rasteriser (``PDFPageDecoder``): a one-page PDF file
    /// made by Mihiraki's PDF reader. Never a page of a folder of images.
    package static let pdfPage = ImageFormat(
        id: "pdf-page", name: "PDF page", extensions: [], mimeType: "application/pdf",
        signatures: [.bytes(PDFPageDecoder.magic)], decoder: PDFPageDecoder.self,
        capabilities: Capabilities(alpha: false, lossless: true, gray: false, streamed: false, largestSide: 1_000_000))
}
