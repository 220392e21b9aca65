import CMihirakiPDF

/// One PDF file, read through Mihiraki's PDF reader (qpdf, Apache-2.0; C++
/// behind the C face `CMihirakiPDF`): its page count and the catalog's
/// declarations, what each page holds, a page's one picture, and a page as a
/// PDF of its own for the rasteriser. The only Swift code that speaks to
/// `CMihirakiPDF`. The C side serialises every call on its own lock, so one
/// reader serves any number of threads (qpdf is not thread-safe by itself).
package final class PDFReader: @unchecked Sendable {
    /// The catalog's declarations.
    package struct Catalog: Sendable {
        package var pages: Int
        /// `/ViewerPreferences /Direction /R2L`.
        package var rightToLeft: Bool
        /// `/PageLayout`: `true` for `/TwoPageRight` (the cover alone),
        /// `false` for `/TwoPageLeft` (the cover paired), nil otherwise.
        package var coverAlone: Bool?
    }

    /// What one page holds.
    package struct Page: Sendable {
        /// The page box in points, /UserUnit and /Rotate applied.
        package var width: Double, height: Double
        /// The page draws exactly one picture over the whole page and nothing else.
        package var isOnePicture: Bool
        /// The picture's size, when it is one picture.
        package var pictureWidth: Int, pictureHeight: Int
        /// The picture is a JPEG stream (its bytes are a JPEG file).
        package var isJPEG: Bool
        /// Samples per pixel of a picture handed over as samples.
        package var channels: Int
        /// The largest picture the page draws anywhere, by its declared size.
        package var largestPart: (width: Int, height: Int)
    }

    /// Why a PDF cannot be opened.
    package enum OpenFailure: Error, Sendable {
        /// A user password is needed.
        case encrypted
        /// The file cannot be read; the reason.
        case damaged(String)
    }

    private let document: OpaquePointer
    package let catalog: Catalog

    /// Opens the PDF at `path` (read as needed, not whole).
    package init(path: String) throws(OpenFailure) {
        var info = mh_pdf_info(), status: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        guard let document = PathBytes.withCString(path, { mh_pdf_open($0, &info, &status, &message, message.count) }) else {
            throw Int(status) == MH_PDF_ENCRYPTED ? .encrypted : .damaged(String(terminated: message))
        }
        self.document = document
        let layout = Int(info.page_layout)
        catalog = Catalog(pages: Int(info.pages), rightToLeft: info.right_to_left != 0,
                          coverAlone: layout == 1 ? false : layout == 2 ? true : nil)
    }

    deinit { mh_pdf_close(document) }

    /// What page `index` (0-based) holds.
    package func page(_ index: Int) throws(CodecError) -> Page {
        var page = mh_pdf_page()
        try checked { message, size in mh_pdf_page_info(document, Int32(index), &page, message, size) }
        return Page(width: page.width, height: page.height, isOnePicture: page.single_image != 0,
                    pictureWidth: Int(page.image_width), pictureHeight: Int(page.image_height), isJPEG: page.jpeg != 0,
                    channels: Int(page.channels), largestPart: (Int(page.largest_width), Int(page.largest_height)))
    }

    /// The one picture of page `index`: a JPEG stream's first `limit` bytes
    /// (as stored), or the samples as a ``PDFSamplesDecoder`` container.
    package func picture(_ index: Int, limit: Int) throws(CodecError) -> [UInt8] {
        try handedOver({ bytes, message, size in
            mh_pdf_page_image(document, Int32(index), UInt64(UInt32.max), limit, bytes, message, size)
        }, as: { Array($0) })
    }

    /// Page `index` as a PDF file of its own, for the rasteriser, as `body`
    /// makes it from the reader's buffer (copied once, by `body`).
    package func pageDocument<T>(_ index: Int, as body: (UnsafeBufferPointer<UInt8>) -> T) throws(CodecError) -> T {
        try handedOver({ bytes, message, size in mh_pdf_page_document(document, Int32(index), bytes, message, size) },
                       as: body)
    }

    private func handedOver<T>(_ call: (UnsafeMutablePointer<mh_pdf_bytes>, UnsafeMutablePointer<CChar>, Int) -> Int32,
                               as body: (UnsafeBufferPointer<UInt8>) -> T) throws(CodecError) -> T {
        var bytes = mh_pdf_bytes()
        defer { mh_pdf_bytes_free(&bytes) }
        try checked { message, size in call(&bytes, message, size) }
        return body(UnsafeBufferPointer(start: bytes.data, count: bytes.size))
    }

    private func checked(_ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws(CodecError) {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { call($0.baseAddress!, $0.count) }
        guard Int(status) == MH_PDF_OK else { throw Self.error(status, String(terminated: message)) }
    }

    private static func error(_ status: Int32, _ detail: String) -> CodecError {
        switch Int(status) {
        case MH_PDF_TOO_LARGE: return CodecError(.tooLarge, detail)
        case MH_PDF_UNSUPPORTED: return CodecError(.unsupported, detail)
        case MH_PDF_ENCRYPTED: return CodecError(.unsupported, "encrypted: " + detail)
        default: return CodecError(.corrupt, detail.isEmpty ? "a damaged page" : detail)
        }
    }
}
