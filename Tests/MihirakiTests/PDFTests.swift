import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// PDF books made with real tools (scripts/make-pdf-fixtures.py: img2pdf,
/// pikepdf, reportlab), against the folder of their pictures and against
/// poppler's own rasteriser, pdftoppm.
@Suite("PDF books: picture pages read as their pictures, other pages drawn, the catalog's declarations",
       .tags(.library), .timeLimit(.minutes(10)))
struct PDFTests {
    static func pdf(_ name: String) -> String { Fixtures.testImages.appendingPathComponent("pdf/\(name).pdf").path }
    static let pages = Fixtures.testImages.appendingPathComponent("pdf/pages").path

    static func message(_ body: () throws -> Void) -> String {
        do { try body() } catch { return (error as? MihirakiError)?.description ?? "\(error)" }
        return ""
    }

    @Test("img2pdf's PDF (DCT kept, PNG as Flate with predictors, a palette as Indexed, 1 and 16 bits) renders byte-identical to its pictures",
          arguments: [CanvasSize.exact(width: 600, height: 300), .exact(width: 2048, height: 1536)])
    func sameAsFolder(size: CanvasSize) throws {
        var options = LayoutOptions()
        options.size = size
        let fromPDF = try SpreadPlan(book: try Book.load(Self.pdf("img2pdf")), options: options)
        let fromFolder = try SpreadPlan(book: try Book.load(Self.pages), options: options)
        #expect(fromPDF.book.images.map(\.source) == (1...7).map { "page \($0)" })
        #expect(fromPDF.text == fromFolder.text && fromPDF.spreadCount == 4)
        for index in 0..<fromPDF.spreadCount {
            #expect(try fromPDF.spreadFile(at: index) == fromFolder.spreadFile(at: index), "spread \(index + 1)")
        }
    }

    @Test("JPEG 2000 pictures (JPXDecode, kept by img2pdf) are decoded by openjp2 as Pillow decodes them")
    func jpegTwoThousand() throws {
        var options = LayoutOptions()
        options.size = .exact(width: 400, height: 300)
        let fromPDF = try SpreadPlan(book: try Book.load(Self.pdf("jpx")), options: options)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["p1", "p2"] {
            let png = Fixtures.testImages.appendingPathComponent("pdf/jpx/\(name).png")
            try folder.write("pages/\(name).png", try Fixtures.bytes(png))
        }
        let fromFolder = try SpreadPlan(book: try Book.load(folder.path + "/pages"), options: options)
        #expect(fromPDF.spreadCount == 2 && fromPDF.headers.map(\.isGray) == [false, true])
        for index in 0..<2 { #expect(try fromPDF.spreadFile(at: index) == fromFolder.spreadFile(at: index)) }
    }

    @Test("A picture with a soft mask (/SMask) reads as the RGBA or gray-and-alpha PNG it was made from")
    func softMask() throws {
        var options = LayoutOptions()
        options.size = .exact(width: 400, height: 300)
        try options.set([("background", "#336699")])
        let fromPDF = try SpreadPlan(book: try Book.load(Self.pdf("soft-mask")), options: options)
        let fromFolder = try SpreadPlan(book: try Book.load(Fixtures.testImages.appendingPathComponent("pdf/alpha").path),
                                      options: options)
        #expect(fromPDF.spreadCount == 2)
        for index in 0..<2 { #expect(try fromPDF.spreadFile(at: index) == fromFolder.spreadFile(at: index)) }
    }

    @Test("The catalog's /Direction /R2L and /PageLayout /TwoPageLeft: right to left, the cover paired; flags come after")
    func declarations() throws {
        let book = try Book.load(Self.pdf("declared"))
        let plan = try SpreadPlan(book: book, options: LayoutOptions())
        #expect(plan.text == "[2|1]\n[4|3]\n")
        #expect(plan.explanation.contains("# direction rtl (PDF catalog)\n# cover paired (PDF catalog)"), "\(plan.explanation)")
        var flags = LayoutOptions()
        flags.direction = .ltr
        flags.cover = .alone
        #expect(try SpreadPlan(book: book, options: flags).text == "[x|1]\n[2|3]\n[4|x]\n")
    }

    @Test("An owner password alone does not stop reading; a user password fails in one line saying encrypted")
    func passwords() throws {
        let owner = try SpreadPlan(book: try Book.load(Self.pdf("owner-only")), options: LayoutOptions())
        var ltr = LayoutOptions()
        ltr.direction = .ltr
        ltr.cover = .alone
        let plain = try SpreadPlan(book: try Book.load(Self.pdf("declared")), options: ltr)
        #expect(owner.spreadCount == 3)
        for index in 0..<3 { #expect(try owner.spreadFile(at: index) == plain.spreadFile(at: index)) }
        let refused = Self.message { _ = try Book.load(Self.pdf("user-password")) }
        #expect(refused.contains("user-password.pdf") && refused.contains("encrypted") && !refused.contains("\n"), "\(refused)")
    }

    @Test("Damaged files fail their book in one line naming the file (and the page)",
          arguments: [("damaged", "a damaged PDF"), ("page-tree-loop", "a damaged PDF: Loop detected in /Pages"),
                      ("inflates-past", "page 1: its picture's stream inflates past the picture's size"),
                      ("ends-early", "page 1: its picture's stream ends early")])
    func damaged(name: String, expected: String) throws {
        let text = Self.message {
            let plan = try SpreadPlan(book: try Book.load(Self.pdf(name)), options: LayoutOptions())
            for index in 0..<plan.spreadCount { _ = try plan.spreadFile(at: index) }
        }
        #expect(text.contains("\(name).pdf") && text.contains(expected) && !text.contains("\n"), "\(text)")
    }

    @Test("A PDF cut short fails in one line naming it, or, recovered, keeps every page: none is dropped in silence",
          arguments: [30, 60, 90, 99])
    func truncated(percent: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let whole = try Fixtures.bytes(URL(fileURLWithPath: Self.pdf("img2pdf")))
        let path = try folder.write("cut.pdf", Array(whole.prefix(whole.count * percent / 100)))
        do {
            let plan = try SpreadPlan(book: try Book.load(path), options: LayoutOptions())
            #expect(plan.pages.count == 7, "\(percent) %: \(plan.pages.count) pages")
            for index in 0..<plan.spreadCount { _ = try plan.spreadFile(at: index) }
        } catch let error as MihirakiError {
            #expect(error.description.contains(path) && !error.description.contains("\n"), "\(error)")
        }
    }

    /// qpdf rebuilds a damaged file's cross-reference table by reading it
    /// whole: this one (a real PDF's start, then 64 GiB of zeros, a sparse
    /// file) ran a plan for nine minutes before it was stopped.
    @Test("A damaged PDF over 1 GiB is refused at once in one line naming it, not rebuilt by reading it whole")
    func damagedAndHuge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let whole = try Fixtures.bytes(URL(fileURLWithPath: Self.pdf("img2pdf")))
        let path = try folder.write("huge.pdf", Array(whole.prefix(whole.count / 2)))
        try Fixtures.growSparse(path)
        let text = Self.message { _ = try SpreadPlan(book: try Book.load(path), options: LayoutOptions()) }
        #expect(text.contains(path) && text.contains("and at 64 GiB the file is too large to rebuild it from (over 1 GiB)") && !text.contains("\n"),
                "\(text)")
    }

    @Test("An encrypted picture stream that inflates past its size is refused, not a crash in the decryption (found by fuzzing)")
    func encryptedOverflow() throws {
        let path = Fixtures.testImages.appendingPathComponent("fuzz-regressions/pdf-encrypted-stream-overflows.pdf").path
        let plan = try SpreadPlan(book: try Book.load(path), options: LayoutOptions())
        let text = Self.message { _ = try plan.spreadFile(at: plan.spreadCount - 1) }
        #expect(text.contains("page 4: its picture's stream inflates past the picture's size"), "\(text)")
    }

    @Test("The same bytes with one worker and with four: poppler's pages and the pictures alike")
    func anyJobs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var options = LayoutOptions()
        options.size = .exact(width: 500, height: 300)
        let plans = try ["vector", "img2pdf", "declared"].map { try SpreadPlan(book: try Book.load(Self.pdf($0)), options: options) }
        var outputs: [[String: Data]] = []
        for jobs in [1, 4] {
            let root = folder.path + "/jobs\(jobs)"
            let outcomes = try BookRenderer.render(plans, into: root, options: runOptions(jobs: jobs))
            #expect(outcomes.allSatisfy { $0.succeeded })
            var files: [String: Data] = [:]
            for path in try FileManager.default.subpathsOfDirectory(atPath: root) where path.hasSuffix(".png") {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
            outputs.append(files)
        }
        #expect(outputs[0].count == 2 + 4 + 2 && outputs[0] == outputs[1])
    }

    @Test("--incremental fingerprints a PDF by its bytes: unchanged, it is skipped; changed, it is written again; its contact sheet too")
    func incremental() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("books/vol.pdf", try Fixtures.bytes(URL(fileURLWithPath: Self.pdf("declared"))))
        var options = LayoutOptions()
        options.size = .exact(width: 300, height: 200)
        var run = runOptions(jobs: 2, contactSheet: true)
        run.incremental = true
        func render() throws -> BookRenderer.Outcome {
            try BookRenderer.render([try SpreadPlan(book: try Book.load(path), options: options)], into: folder.path + "/out",
                                    options: run)[0]
        }
        let first = try render()
        #expect(first.succeeded && !first.skipped && first.written.count == 2)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/vol/contact-sheet.png"))
        #expect(try render().skipped)
        // Another picture PDF in the same place: new bytes, written again.
        _ = try folder.write("books/vol.pdf", try Fixtures.bytes(URL(fileURLWithPath: Self.pdf("jpx"))))
        let third = try render()
        #expect(third.succeeded && !third.skipped)
    }

    @Test("--max-pixels is checked on the picture's size before anything is inflated")
    func pixelLimit() throws {
        var options = LayoutOptions()
        options.size = .exact(width: 100, height: 60)
        options.maxPixels = 10_000
        let text = Self.message { _ = try SpreadPlan(book: try Book.load(Self.pdf("img2pdf")), options: options) }
        #expect(text.contains("img2pdf.pdf:page 1: 120×180 is more than the 10000-pixel limit"), "\(text)")
    }

    /// Page 1 of `path` as Mihiraki draws it on a 900×700 spread, against
    /// pdftoppm (the reference rasteriser) at exactly its rectangle: the PSNR,
    /// and the spread and rectangle for further checks.
    static func againstPdftoppm(_ path: String) throws -> (psnr: Double, spread: PixelBuffer, rect: PixelRect) {
        var options = LayoutOptions()
        options.size = .exact(width: 900, height: 700)
        let plan = try SpreadPlan(book: try Book.load(path), options: options)
        let spread = try plan.renderSpread(at: 0)
        let rect = try #require(plan.entries[0].slots.first(where: { $0.leaf.pageNumber == 1 })).rect
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try runTool("/usr/bin/pdftoppm", ["-f", "1", "-l", "1", "-scale-to-x", "\(rect.width)", "-scale-to-y",
                                                   "\(rect.height)", "-png", "-singlefile", path, folder.path + "/reference"])
        #expect(run.status == 0, "\(run.stderr)")
        let reference = try PageDecoder.decode(Fixtures.bytes(URL(fileURLWithPath: folder.path + "/reference.png")))
        #expect(reference.width == rect.width && reference.height == rect.height)
        var squared = 0.0, count = 0.0
        let channels = spread.channels
        for y in 0..<min(rect.height, reference.height) {
            for x in 0..<min(rect.width, reference.width) {
                for c in 0..<3 {
                    let ours = Double(spread.pixels[((rect.y + y) * spread.width + rect.x + x) * channels + min(c, channels - 1)])
                    let theirs = Double(reference.pixels[(y * reference.width + x) * reference.channels + min(c, reference.channels - 1)])
                    squared += (ours - theirs) * (ours - theirs)
                    count += 1
                }
            }
        }
        return (10 * log10(255 * 255 / max(squared / max(count, 1), 1e-9)), spread, rect)
    }

    @Test("A page of text and shapes is drawn by poppler at exactly its rectangle: within 28 dB of pdftoppm at that size")
    func vectorPage() throws {
        let (psnr, spread, rect) = try Self.againstPdftoppm(Self.pdf("vector"))
        #expect(psnr >= 28, "PSNR \(psnr) dB")
        // Not blank: the red square is there.
        let channels = spread.channels
        let middle = ((rect.y + rect.height / 2) * spread.width + rect.x + rect.width / 2) * channels
        #expect(channels == 3 && spread.pixels[middle] > 150 && spread.pixels[middle + 1] < 100)
    }

    /// Real PDFs make poppler warn about their structure while it draws
    /// them; pdftoppm and mutool draw them all the same. Only a damaged
    /// picture stream makes a page wrong (scripts/make-pdf-fixtures.py,
    /// `messages/`).
    @Test("A page poppler warns about (an annotation's destination, a graphics state popped once too often, a form field, a bare JPEG 2000 codestream) draws as pdftoppm draws it",
          arguments: ["bad-dest", "restore", "field", "j2k"])
    func warningsDoNotFail(name: String) throws {
        let (psnr, spread, rect) = try Self.againstPdftoppm(Self.pdf("messages/\(name)"))
        #expect(psnr >= 28, "PSNR \(psnr) dB")
        // The blue square in the page's lower left is there.
        let x = rect.x + rect.width * 25 / 200, y = rect.y + rect.height - rect.height * 25 / 300
        let at = (y * spread.width + x) * spread.channels
        #expect(spread.channels == 3 && spread.pixels[at] < 60 && spread.pixels[at + 2] > 200)
    }

    @Test("A page whose picture stream is damaged (Flate, LZW, JBIG2, JPEG 2000, DCT) fails in one line naming the page and what is wrong",
          arguments: [("bad-flate", "Bad block header in flate stream"), ("bad-lzw", "Bad LZW stream - unexpected code"),
                      ("bad-jbig2", "extraneous bytes after segment"), ("bad-j2k", "Stream too short"),
                      ("bad-dct", "its JPEG picture of 40×60 is damaged: Corrupt JPEG data")])
    func damagedStreamsFail(name: String, words: String) throws {
        let text = Self.message {
            _ = try SpreadPlan(book: try Book.load(Self.pdf("messages/\(name)")), options: LayoutOptions()).renderSpread(at: 0)
        }
        let prefix = name == "bad-dct" ? "\(name).pdf:page 1: " : "\(name).pdf:page 1: poppler: "
        #expect(text.contains(prefix) && text.contains(words) && !text.contains("\n"), "\(text)")
    }

    /// A PDF of one page showing one JPEG across it, written here object by
    /// object: `page` and `image` add to those dictionaries, `content` to the
    /// page's content before the picture is drawn, `objects` are objects 6….
    /// `picture` replaces the picture's size, colour space and filter (then
    /// `jpeg` is whatever stream that filter reads).
    static func onePicturePDF(jpeg: [UInt8], width: Int, height: Int, page: String = "", image: String = "",
                              picture: String? = nil, content: String = "", objects: [String] = [],
                              deflated: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = Array("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        func object(_ body: [UInt8]) {
            offsets.append(out.count)
            out += Array("\(offsets.count) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        let drawing = Array("q \(content) \(width) 0 0 \(height) 0 0 cm /Im0 Do Q".utf8)
        object(Array("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        object(Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8))
        object(Array("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Resources << /XObject << /Im0 4 0 R >> \(objects.isEmpty ? "" : "/ExtGState << /GS1 6 0 R >>") >> /Contents 5 0 R \(page) >>".utf8))
        object(Array("<< /Type /XObject /Subtype /Image \(picture ?? "/Width \(width) /Height \(height) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode") /Length \(jpeg.count) \(image) >>\nstream\n".utf8) + jpeg + Array("\nendstream".utf8))
        if let deflated {
            object(Array("<< /Length \(deflated.count) /Filter /FlateDecode >>\nstream\n".utf8) + deflated + Array("\nendstream".utf8))
        } else {
            object(Array("<< /Length \(drawing.count) >>\nstream\n".utf8) + drawing + Array("\nendstream".utf8))
        }
        for extra in objects { object(Array(extra.utf8)) }
        let xref = out.count
        out += Array("xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Array(String(format: "%010d 00000 n \n", offset).utf8) }
        out += Array("trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
