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
final class PDFSource: BookSource, Sendable {
    private let reader: PDFReader
    let path: String
    private let pages: [String]
    let declarations: BookDeclarations?

    init(path: String) throws {
        self.path = path
        do {
            reader = try PDFReader(path: path)
        } catch .encrypted {
            throw MihirakiError(.badBook, path: path, "an encrypted PDF: it needs a password to open")
        } catch .damaged(let detail) {
            throw MihirakiError(.badBook, path: path, "a damaged PDF: " + detail)
        }
        guard reader.catalog.pages > 0 else {
            throw MihirakiError(.badBook, path: path, "a damaged PDF: no page can be found")
        }
        pages = (1...reader.catalog.pages).map { "page \($0)" }
        var declared = BookDeclarations(origin: .pdfCatalog)
        if reader.catalog.rightToLeft { declared.direction = .rtl }
        if let alone = reader.catalog.coverAlone { declared.cover = alone ? .alone : .paired }
        declarations = declared
    }

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
        let (index, page) = try info(relativePath)
        guard page.isOnePicture else {
            return PDFPageDecoder.page(width: page.width, height: page.height, largestPart: page.largestPart,
                                       document: UnsafeBufferPointer(start: nil, count: 0))
        }
        if page.isJPEG { return try picture(relativePath, index, limit: count) }
        return PDFSamplesDecoder.header(width: page.pictureWidth, height: page.pictureHeight, channels: page.channels)
    }

    /// A page of one picture: that picture (a JPEG file, or samples). Any
    /// other page: a PDF file of that page alone, for the rasteriser.
    func read(_ relativePath: String) throws -> [UInt8] {
        let (index, page) = try info(relativePath)
        if page.isOnePicture { return try picture(relativePath, index, limit: Int.max) }
        return try named(relativePath) {
            try reader.pageDocument(index) {
                PDFPageDecoder.page(width: page.width, height: page.height, largestPart: page.largestPart, document: $0)
            }
        }
    }

    /// The picture of a page of one picture: at most `limit` bytes of a JPEG
    /// stream (its Exif hidden: PDF draws a JPEG as stored), or the samples.
    private func picture(_ relativePath: String, _ index: Int, limit: Int) throws -> [UInt8] {
        ExifOrientation.hidingExif(try named(relativePath) { try reader.picture(index, limit: limit) })
    }

    private func info(_ relativePath: String) throws -> (index: Int, page: PDFReader.Page) {
        let index = try number(relativePath) - 1
        return (index, try named(relativePath) { try reader.page(index) })
    }

    /// Runs one reader call for a page; a failure becomes an error naming the page.
    private func named<T>(_ relativePath: String, _ call: () throws -> T) throws -> T {
        do { return try call() } catch let error as CodecError { throw MihirakiError(error, path: displayPath(relativePath)) }
    }

    private func number(_ relativePath: String) throws -> Int {
        guard relativePath.hasPrefix("page "), let number = Int(relativePath.dropFirst(5)),
              number >= 1, number <= pages.count else {
            throw MihirakiError(.badBook, path: displayPath(relativePath), "no such page in this PDF")
        }
        return number
    }
}

extension BookKind {
    /// PDF (`.pdf`, or bytes starting `%PDF-`): pages in page-tree order.
    package static let pdf = BookKind(
        name: "PDF", extensions: ["pdf"], signatures: [.text("%PDF-")], open: PDFSource.init)
}
