import Foundation
import Mihiraki
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing

/// What `--pairing auto` says about each seam (its confidence, in `plan
/// --explain` and the manifest), the `--pairing-threshold` option, the
/// pairs it once got wrong (TestImages/pairing-cases), and labels in and
/// out: ComicInfo's `DoublePage` read as a declaration and written back by
/// `render --write-comicinfo`.
@Suite("Automatic pairing: confidence, threshold, labels in and out")
struct PairingConfidenceTests {
    struct Cases: Decodable {
        struct Case: Decodable {
            var name: String
            var direction: String
            var split: Bool
            /// The highest confidence the pair may reach, where one is given.
            var most: Double?
        }
        var cases: [Case]
    }

    struct PlanJSON: Decodable {
        struct Seam: Decodable { var pages: [Int]; var score: Double; var split: Bool }
        struct Spread: Decodable, Equatable {
            struct Slot: Decodable, Equatable { var page: Int? }
            var slots: [Slot]
        }
        var splits: [[Int]]?
        var seams: [Seam]?
        var spreads: [Spread]
    }

    static let folder = Fixtures.testImages.appendingPathComponent("pairing-cases")
    static let cases = try! JSONDecoder().decode(Cases.self, from: Data(contentsOf: folder.appendingPathComponent("cases.json"))).cases

    func plan(_ arguments: [String]) throws -> PlanJSON {
        try JSONDecoder().decode(PlanJSON.self, from: Data(try planOutput(["--json"] + arguments).utf8))
    }

    @Test("Pairs the detector once got wrong: photo splits across smooth colour, tone splits across speed lines and drawn splits with too little detail at the seam are found; tone pages sharing panel borders are not taken",
          arguments: cases.map(\.name))
    func regressionCases(_ name: String) throws {
        let known = try #require(Self.cases.first { $0.name == name })
        let book = Self.folder.appendingPathComponent(name).path
        let answer = try plan([book, "--pairing", "auto", "--direction", known.direction])
        let seam = try #require(answer.seams?.first, "\(name): no seam judged")
        #expect(seam.pages == [1, 2] && seam.split == known.split, "\(name): confidence \(seam.score)")
        #expect((answer.splits ?? []).contains([1, 2]) == known.split)
        if let most = known.most { #expect(seam.score <= most, "\(name): confidence \(seam.score)") }
    }

    @Test("A book scanned larger is judged as at its own size: the pairs once got wrong, 1.6 and 2.5 times larger, keep their answer and their confidence within 0.15",
          arguments: cases.map(\.name), [1.6, 2.5])
    func resizedCases(_ name: String, scale: Double) throws {
        let known = try #require(Self.cases.first { $0.name == name })
        let book = Self.folder.appendingPathComponent(name)
        let resized = try TemporaryFolder()
        defer { resized.remove() }
        for file in try FileManager.default.contentsOfDirectory(atPath: book.path).filter({ $0.hasSuffix(".jpg") }) {
            let page = try PageDecoder.decode(Fixtures.bytes(book.appendingPathComponent(file)))
            let larger = LanczosResampler.resample(page, width: Int((Double(page.width) * scale).rounded()),
                                                   height: Int((Double(page.height) * scale).rounded()))
            _ = try resized.write(file, try JPEGEncoder.encode(larger, quality: 92))
        }
        let original = try #require(try plan([book.path, "--pairing", "auto", "--direction", known.direction]).seams?.first)
        let answer = try plan([resized.path, "--pairing", "auto", "--direction", known.direction])
        let seam = try #require(answer.seams?.first, "\(name) at \(scale)×: no seam judged")
        #expect(seam.split == original.split && abs(seam.score - original.score) <= 0.15,
                "\(name) at \(scale)×: confidence \(seam.score), \(original.score) at its own size")
    }

    @Test("Every seam has a confidence from 0 to 1 in the manifest and --explain; splits are the seams taken; --pairing-threshold moves the bar")
    func confidenceAndThreshold() throws {
        let positive = Self.folder.appendingPathComponent("photo-1-book011-ltr-p2").path
        let negative = Self.folder.appendingPathComponent("tone-13-book006-rtl-p6").path
        let answer = try plan([positive, "--pairing", "auto"])
        let seams = try #require(answer.seams)
        #expect(!seams.isEmpty && seams.allSatisfy { (0...1).contains($0.score) })
        #expect(seams.filter(\.split).map(\.pages) == answer.splits)
        let explained = try planOutput([positive, "--pairing", "auto", "--explain"])
        let score = String(format: "%.3f", seams[0].score)
        #expect(explained.contains("# pages 1+2: one artwork (confidence \(score): seam "), "\(explained)")

        // Above the seam's confidence: not taken; below a negative's: taken.
        #expect(try plan([positive, "--pairing", "auto", "--pairing-threshold", "1"]).splits == [])
        let rejected = try #require(try plan([negative, "--pairing", "auto", "--direction", "rtl"]).seams?.first)
        #expect(!rejected.split && rejected.score > 0.2)
        let lowered = try plan([negative, "--pairing", "auto", "--direction", "rtl", "--pairing-threshold", "0.2"])
        #expect(lowered.splits == [[1, 2]])
        // Static pairing writes no seams.
        #expect(try plan([positive]).seams == nil)
    }

    @Test("A book photographed with its pages darker toward the corners, text inside white margins and two blank pages, takes no split: every page's edges have that shape")
    func sharedVignetteBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let width = 600, height = 900
        for page in 1...8 {
            var pixels = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    // A fall-off of 40 levels at the middle of either side edge and 80 at the corners.
                    let dx = Double(x - width / 2) / Double(width), dy = Double(y - height / 2) / Double(height)
                    var level = 245 - 160 * (dx * dx + dy * dy)
                    // Lines of text 60 px in from either edge, on every page but the blank ones (3 and 4).
                    let line = (y - 120) % 36, length = 420 - (page * 37 + y / 36 * 53) % 120
                    if page != 3 && page != 4 && y >= 120 && y < height - 120 && line < 14 && x >= 60 && x < 60 + length {
                        level -= 170
                    }
                    pixels[y * width + x] = UInt8(max(0, min(255, level.rounded())))
                }
            }
            let image = PixelBuffer(width: width, height: height, channels: 1, pixels: pixels)
            try folder.write("p\(page).jpg", try JPEGEncoder.encode(image, quality: 85))
        }
        let explained = try planOutput([folder.path, "--pairing", "auto", "--explain"])
        let answer = try plan([folder.path, "--pairing", "auto"])
        let seams = try #require(answer.seams, "\(explained)")
        #expect(seams.count == 7 && answer.splits == [] && seams.allSatisfy { $0.score < 0.5 }, "\(explained)")
        // The two blank pages' seam is judged on the shape alone, and other pages match it as well.
        #expect(explained.contains("# pages 3+4: two pages (confidence 0.000: too little detail at the seam"), "\(explained)")
    }

    @Test("--pairing-threshold outside 0…1 is a usage error naming the option", arguments: ["1.5", "-0.1", "high"])
    func badThreshold(_ value: String) throws {
        let run = try mihiraki(["plan", Self.folder.appendingPathComponent("photo-1-book011-ltr-p2").path,
                                "--pairing", "auto", "--pairing-threshold", value])
        #expect(run.status == 2 && run.stderr.contains("--pairing-threshold"), "\(run.stderr)")
    }

    @Test("render --write-comicinfo marks both pages of each split DoublePage; read back, the book keeps them together with static pairing, and a lone DoublePage page stays wide")
    func comicInfoRoundTrip() throws {
        let work = try TemporaryFolder()
        defer { work.remove() }
        // Two pages before the split put its first page on the right with static pairing: [x|1] [2|3] [4|x]…
        let source = Self.folder.appendingPathComponent("photo-1-book011-ltr-p2").path
        let book = work.path + "/book"
        try FileManager.default.createDirectory(atPath: book, withIntermediateDirectories: true)
        for (index, other) in ["tone-1-book006-rtl-p2", "tone-1-book022-ltr-p2"].enumerated() {
            try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent(other).path + "/p1.jpg",
                                             toPath: book + "/a\(index + 1).jpg")
        }
        try FileManager.default.copyItem(atPath: source + "/p1.jpg", toPath: book + "/b1.jpg")
        try FileManager.default.copyItem(atPath: source + "/p2.jpg", toPath: book + "/b2.jpg")
        let auto = try plan([book, "--pairing", "auto"])
        #expect((auto.splits ?? []).contains([3, 4]))

        let rendered = try mihiraki(["render", book, "-o", work.path + "/out", "--pairing", "auto", "--size", "x100",
                                     "--write-comicinfo", "-q"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let written = try String(contentsOfFile: work.path + "/out/book/ComicInfo.xml", encoding: .utf8)
        // --incremental counts ComicInfo.xml among the book's files: a missing one is written again.
        try FileManager.default.removeItem(atPath: work.path + "/out/book/ComicInfo.xml")
        let again = try mihiraki(["render", book, "-o", work.path + "/out", "--pairing", "auto", "--size", "x100",
                                  "--write-comicinfo", "--incremental", "-q"])
        #expect(again.status == 0 && FileManager.default.fileExists(atPath: work.path + "/out/book/ComicInfo.xml"), "\(again.stderr)")
        #expect(written.contains("<Page Image=\"2\" DoublePage=\"true\" />") && written.contains("<Page Image=\"3\" DoublePage=\"true\" />"))
        try FileManager.default.copyItem(atPath: work.path + "/out/book/ComicInfo.xml", toPath: book + "/ComicInfo.xml")
        let declared = try plan([book])
        #expect(declared.spreads == auto.spreads)
        let explained = try planOutput([book, "--explain"])
        #expect(explained.contains("# pages 3+4: one artwork (ComicInfo.xml)"), "\(explained)")

        // One marked page alone is a spread in one file, as before.
        try Data("<ComicInfo><Pages><Page Image=\"1\" DoublePage=\"true\"/></Pages></ComicInfo>".utf8)
            .write(to: URL(fileURLWithPath: book + "/ComicInfo.xml"))
        #expect(try planOutput([book, "--explain"]).contains("# page 2 wide (ComicInfo.xml)"))
    }

    @Test("KCC's spread labels beside the book declare one artwork; bad labels, or labels reached through a link out of a server's root, are a warning and are not read")
    func kccLabels() throws {
        let work = try TemporaryFolder()
        defer { work.remove() }
        let book = work.path + "/root/book"
        try FileManager.default.createDirectory(atPath: book, withIntermediateDirectories: true)
        for (index, name) in ["tone-1-book006-rtl-p2", "tone-1-book022-ltr-p2", "photo-1-book011-ltr-p2", "photo-1-book017-ltr-p2"].enumerated() {
            try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent(name).path + "/p1.jpg",
                                             toPath: book + "/p\(index + 1).jpg")
        }
        let plain = try plan([book])
        // Images 2 and 3 (0-based): pages 3 and 4, which static pairing puts on two spreads.
        try Data(#"{"spreads": [2]}"#.utf8).write(to: URL(fileURLWithPath: book + ".json"))
        let labelled = try plan([book])
        #expect(labelled.spreads != plain.spreads)
        #expect(labelled.spreads.contains { Set($0.slots.compactMap(\.page)) == [3, 4] })
        #expect(try planOutput([book, "--explain"]).contains("# pages 3+4: one artwork (KCC spread labels); a blank before page 3 keeps them together"))
        #expect(try plan([book, "--pairing", "auto"]).splits == [[3, 4]])

        try Data("not json".utf8).write(to: URL(fileURLWithPath: book + ".json"))
        let loaded = try Book.load(book)
        #expect(loaded.warnings.contains { $0.description.contains("book.json") && $0.description.contains("not KCC spread labels") })
        #expect(try plan([book]).spreads == plain.spreads)

        // Labels of many GiB (a sparse file) are refused by their size, not read whole (which ended the
        // process, and a server loading the book with it, failing to allocate them).
        try FileManager.default.removeItem(atPath: book + ".json")
        #expect(FileManager.default.createFile(atPath: book + ".json", contents: nil))
        try Fixtures.growSparse(book + ".json")
        let hugeLabels = try Book.load(book)
        #expect(hugeLabels.warnings.map(\.description).contains {
            $0.contains("book.json") && $0.contains("larger than 1 MiB, more than any KCC spread labels hold")
        })
        #expect(try plan([book]).spreads == plain.spreads)

        // A server never reads labels that leave its root.
        try FileManager.default.removeItem(atPath: book + ".json")
        try Data(#"{"spreads": [2]}"#.utf8).write(to: URL(fileURLWithPath: work.path + "/outside.json"))
        try FileManager.default.createSymbolicLink(atPath: book + ".json", withDestinationPath: work.path + "/outside.json")
        let served = try Book.load(book, confinedTo: work.path + "/root")
        #expect(served.warnings.contains { $0.description.contains("leaves the served folder") })
        let servedPlan = try SpreadPlan(book: served, options: LayoutOptions())
        #expect(servedPlan.manifest.spreads.map { $0.slots.compactMap(\.page) } == plain.spreads.map { $0.slots.compactMap(\.page) })
    }
}
