import CMihirakiPDF
import MihirakiCodecs
import MihirakiCore

/// A PDF book, read through qpdf (Apache-2.0): pages in page-tree order, named
/// `page 1`, `page 2`, … A page whose content draws one picture over the
/// whole page (scans and converters write comics so) is read from that
/// picture at its own pixel size: a JPEG stream as the JPEG file it is, any
/// other as 8-bit samples (``ImageFormat/pdfSamples``). The catalog's
/// `/ViewerPreferences /Direction /R2L` and `/PageLayout /TwoPageRight|Left`
/// are the book's declarations. A PDF that needs a user password fails in one
/// line saying it is encrypted; an owner password alone does not stop it.
final class PDFSource: BookSource, @unchecked Sendable {
    // One qpdf document; the C side serialises every call on its own lock, so
    // workers share it safely (qpdf is not thread-safe by itself).
    private let document: OpaquePointer
    let path: String
    private let pages: [String]
    let declarations: BookDeclarations?

    init(path: String) throws {
        self.path = path
        var info = mh_pdf_info(), status: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        guard let document = mh_pdf_open(path, &info, &status, &message, message.count) else {
            let detail = Self.text(message)
            switch Int(status) {
            case MH_PDF_ENCRYPTED:
                throw MihirakiError(.badBook, path: path, "an encrypted PDF: it needs a password to open")
            default:
                throw MihirakiError(.badBook, path: path, "a damaged PDF: " + detail)
            }
        }
        self.document = document
        guard info.pages > 0 else {
            mh_pdf_close(document)
            throw MihirakiError(.badBook, path: path, "a damaged PDF: no page can be found")
        }
        pages = (1...Int(info.pages)).map { "page \($0)" }
        var declared = BookDeclarations(origin: .pdfCatalog)
        if info.right_to_left != 0 { declared.direction = .rtl }
        switch info.page_layout {
        case 1: declared.cover = .paired
        case 2: declared.cover = .alone
        default: break
        }
        declarations = declared
    }

    deinit { mh_pdf_close(document) }

    func listFiles() throws -> [String] { pages }
    func readingOrder() throws -> [String]? { pages }
    func displayPath(_ relativePath: String) -> String { path + ":" + relativePath }

    /// The whole file's CRC: its bytes decide every page.
    func wholeChecksum() throws -> (size: Int, crc: UInt32)? { try FileSystem.checksum(path) }
    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) {
        let bytes = try read(relativePath)
        return (bytes.count, crc32(bytes))
    }

    /// A JPEG page's first `count` bytes (its header is in them); for
    /// samples, and for a page for the rasteriser, only the header, so the
    /// page's size is known (and checked against the pixel limit) before
    /// anything is inflated or written.
    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        let page = try info(relativePath)
        guard page.single_image != 0 else {
            return PDFPageDecoder.page(width: page.width, height: page.height, largestPart: Self.largestPart(page),
                                       document: UnsafeBufferPointer(start: nil, count: 0))
        }
        if page.jpeg != 0 { return try picture(relativePath, limit: count) }
        return PDFSamplesDecoder.header(width: Int(page.image_width), height: Int(page.image_height),
                                        channels: Int(page.channels))
    }

    /// A page of one picture: that picture (a JPEG file, or samples). Any
    /// other page: a PDF file of that page alone, for the rasteriser.
    func read(_ relativePath: String) throws -> [UInt8] {
        let page = try info(relativePath)
        if page.single_image != 0 { return try picture(relativePath, limit: Int.max) }
        let index = Int32(try number(relativePath) - 1)
        return try handedOver(relativePath) { bytes, message, size in
            mh_pdf_page_document(document, index, bytes, message, size)
        } as: { PDFPageDecoder.page(width: page.width, height: page.height, largestPart: Self.largestPart(page), document: $0) }
    }

    private static func largestPart(_ page: mh_pdf_page) -> (width: Int, height: Int) {
        (Int(page.largest_width), Int(page.largest_height))
    }

    /// The picture of a page of one picture: at most `limit` bytes of a JPEG
    /// stream (its Exif hidden: PDF draws a JPEG as stored), or the samples.
    private func picture(_ relativePath: String, limit: Int) throws -> [UInt8] {
        let index = Int32(try number(relativePath) - 1)
        let bytes = try handedOver(relativePath) { bytes, message, size in
            mh_pdf_page_image(document, index, UInt64(UInt32.max), limit, bytes, message, size)
        } as: { Array($0) }
        return ExifOrientation.hidingExif(bytes)
    }

    private func info(_ relativePath: String) throws -> mh_pdf_page {
        var page = mh_pdf_page()
        let index = Int32(try number(relativePath) - 1)
        try checked(relativePath) { message, size in mh_pdf_page_info(document, index, &page, message, size) }
        return page
    }

    /// Bytes a reader call hands over for a page, as `body` makes them, freed after.
    private func handedOver(_ relativePath: String,
                            _ call: (UnsafeMutablePointer<mh_pdf_bytes>, UnsafeMutablePointer<CChar>, Int) -> Int32,
                            as body: (UnsafeBufferPointer<UInt8>) -> [UInt8]) throws -> [UInt8] {
        var bytes = mh_pdf_bytes()
        defer { mh_pdf_bytes_free(&bytes) }
        try checked(relativePath) { message, size in call(&bytes, message, size) }
        return body(UnsafeBufferPointer(start: bytes.data, count: bytes.size))
    }

    /// Runs one reader call for a page; a failure becomes an error naming the page.
    private func checked(_ relativePath: String, _ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { call($0.baseAddress!, $0.count) }
        guard Int(status) == MH_PDF_OK else { throw MihirakiError(Self.error(status, message), path: displayPath(relativePath)) }
    }

    private func number(_ relativePath: String) throws -> Int {
        guard relativePath.hasPrefix("page "), let number = Int(relativePath.dropFirst(5)),
              number >= 1, number <= pages.count else {
            throw MihirakiError(.badBook, path: displayPath(relativePath), "no such page in this PDF")
        }
        return number
    }

    private static func error(_ status: Int32, _ message: [CChar]) -> CodecError {
        let detail = text(message)
        switch Int(status) {
        case MH_PDF_TOO_LARGE: return CodecError(.tooLarge, detail)
        case MH_PDF_UNSUPPORTED: return CodecError(.unsupported, detail)
        case MH_PDF_ENCRYPTED: return CodecError(.unsupported, "encrypted: " + detail)
        default: return CodecError(.corrupt, detail.isEmpty ? "a damaged page" : detail)
        }
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension BookKind {
    /// PDF (`.pdf`, or bytes starting `%PDF-`): pages in page-tree order.
    package static let pdf = BookKind(
        name: "PDF", extensions: ["pdf"], signatures: [.text("%PDF-")], open: PDFSource.init)
}
