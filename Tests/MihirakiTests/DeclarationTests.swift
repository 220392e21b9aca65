import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCodecs

/// The declarations everything else is derived from: each page format, each
/// output format, each kind of book file, each option. These tests walk them,
/// so a new entry that lacks its fixture, its fuzz target, its MIME type or
/// its bad-input case fails here, not in a user's hands.
@Suite("Declarations: formats, book kinds and options, each declared once", .tags(.library), .timeLimit(.minutes(10)))
struct DeclarationTests {
    static let fuzzScript = (try? String(contentsOf: Fixtures.testImages.deletingLastPathComponent()
        .appendingPathComponent("scripts/fuzz"), encoding: .utf8)) ?? ""

    /// Every file under TestImages/, as (path, first bytes).
    static let fixtures: [(path: String, head: [UInt8])] = {
        let root = Fixtures.testImages.path
        let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return paths.sorted().compactMap { relative in
            guard let handle = FileHandle(forReadingAtPath: root + "/" + relative) else { return nil }
            defer { try? handle.close() }
            return (relative, Array((try? handle.read(upToCount: 16)) ?? Data()))
        }
    }()

    @Test("Every readable page format has a fixture it decodes, a fuzz target and an image MIME type",
          arguments: ImageFormat.readable)
    func pageFormat(format: ImageFormat) throws {
        #expect(format.mimeType.hasPrefix("image/"))
        #expect(!format.extensions.isEmpty && format.extensions.allSatisfy { $0 == $0.lowercased() })
        let fixture = try #require(Self.fixtures.first { fixture in
            format.extensions.contains { fixture.path.lowercased().hasSuffix("." + $0) } && ImageFormat.sniff(fixture.head) == format
        }, "no fixture of \(format.name) in TestImages/")
        let bytes = try Fixtures.bytes(Fixtures.testImages.appendingPathComponent(fixture.path))
        let header = try PageDecoder.header(of: bytes)
        #expect(header.format == format)
        let image = try PageDecoder.decode(bytes)
        #expect(image.width == header.width && image.height == header.height)
        // The declared capabilities are what the decoder does.
        let capabilities = try #require(format.capabilities)
        let streams = try PageDecoder.open(bytes) { $0.streams }
        #expect(streams == capabilities.streamed || (format == .png && !streams), "\(fixture.path)")
        let targets = Self.fuzzScript.split(separator: "\n").first { $0.hasPrefix("targets=(") } ?? ""
        let names = targets.dropFirst("targets=(".count).dropLast().split(separator: " ").map(String.init)
        #expect(names.contains(format.id) || names.contains(format.extensions[0]),
                "scripts/fuzz has no target for \(format.name)")
    }

    @Test("Every page format, read or only named, has a case in the bad-input catalogue", arguments: ImageFormat.all)
    func badInputCase(format: ImageFormat) {
        let cases = badPages.filter { ImageFormat.sniff($0.bytes) == format && $0.error != nil }
        #expect(!cases.isEmpty, "no bad \(format.name) page in BadInputTests")
        if !format.isDecodable {
            #expect(cases.contains { $0.error!.contains("\(format.name) images are not supported") })
        }
    }

    @Test("Signatures and extensions identify one format each")
    func distinct() {
        for format in ImageFormat.all {
            for other in ImageFormat.all where other != format {
                #expect(Set(format.extensions).isDisjoint(with: other.extensions), "\(format.name) and \(other.name)")
            }
        }
        #expect(Book.imageExtensions == Set(ImageFormat.all.flatMap(\.extensions)))
        #expect(ImageComparator.imageExtensions.isSubset(of: Book.imageExtensions))
        #expect(ImageFormat.readableNames == "PNG, JPEG, WebP, GIF, AVIF and JPEG XL")
        // The one place the book kinds' list is spelled out; messages and tests take it from the registry.
        #expect(BookKind.names == "EPUB, PDF, ZIP, RAR, 7z, tar")
    }

    @Test("Every output format is one Mihiraki reads back (compare, --check) and has its MIME type",
          arguments: SpreadFormat.allCases)
    func spreadFormat(format: SpreadFormat) throws {
        var encoding = SpreadEncoding()
        encoding.format = format
        let bytes = try SpreadEncoder.encode(Fixtures.solid(width: 8, height: 6, [10, 200, 30]), with: encoding)
        let read = try #require(ImageFormat.sniff(bytes))
        #expect(read.mimeType == format.mimeType && read.isDecodable)
        #expect(read.extensions.contains(format.fileExtension))
        #expect(SpreadFormat(rawValue: format.rawValue.uppercased()) == format)
        #expect(SpreadFormat(rawValue: format.fileExtension) == format)
        #expect(format.hasAlpha == (read.capabilities?.alpha ?? false))
    }

    /// The overviews listed archives without EPUB and PDF once those were
    /// declared: each kind's name is read from the registry, not a list here.
    @Test("The documentation's overviews name every kind of book file the registry declares")
    func overviewsNameEveryKind() throws {
        let docs = Fixtures.packageRoot.appendingPathComponent("Sources/Mihiraki/Mihiraki.docc")
        for page in ["Mihiraki.md", "PagesAndArchives.md"] {
            let text = try String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8)
            let overview = try #require(text.components(separatedBy: "## Overview").dropFirst().first?
                .components(separatedBy: "\n\n").first { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty })
            for kind in BookKind.all { #expect(overview.contains(kind.name), "\(page)'s overview names no \(kind.name)") }
        }
    }

    @Test("Every kind of book file is told from its bytes whatever its name, and its extensions from nothing else")
    func bookKinds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try Fixtures.solidPNG(width: 30, height: 40, [9])
        try folder.write("src/p1.png", page)
        try folder.write("src/p2.png", page)
        let made: [String: String] = ["ZIP": "zip", "7z": "7zip", "tar": "ustar"]
        for kind in BookKind.all {
            #expect(!kind.signatures.isEmpty && !kind.extensions.isEmpty)
            var path = folder.path + "/" + kind.name + ".bin"
            if kind.name == "EPUB" {
                // Written by the specification's rules (scripts/make-epub-fixtures.py).
                path = folder.path + "/EPUB.bin"
                try FileManager.default.copyItem(atPath: Fixtures.testImages.appendingPathComponent("epub/epub2-fixed.epub").path,
                                                 toPath: path)
            } else if kind.name == "PDF" {
                // Made by img2pdf (scripts/make-pdf-fixtures.py): two of its pages are enough here.
                path = folder.path + "/PDF.bin"
                try FileManager.default.copyItem(atPath: Fixtures.testImages.appendingPathComponent("pdf/jpx.pdf").path,
                                                 toPath: path)
            } else if let format = made[kind.name] {
                try bsdtar(["--format", format, "-cf", path, "-C", folder.path + "/src", "."])
            } else {
                #expect(kind.name == "RAR")
                _ = try folder.write(kind.name + ".bin", RAR4Writer.archive([("p1.png", page), ("p2.png", page)]))
            }
            let head = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(512))
            #expect(BookKind.of(head: head, name: "book.bin")?.name == kind.name)
            #expect(BookKind.of(head: [], name: "book." + kind.extensions[0])?.name == kind.name)
            #expect(try Book.load(path).images.count == (kind.name == "EPUB" ? 5 : 2), "\(kind.name)")
        }
        for other in BookKind.all where other.name != "ZIP" { #expect(Set(BookKind.zip.extensions).isDisjoint(with: other.extensions)) }
    }
}

@Suite("The option table: one declaration per option for the CLI, the server and the fingerprint", .tags(.library), .timeLimit(.minutes(10)))
struct OptionTableTests {
    @Test("Changing any option changes the fingerprint and the ETag", arguments: LayoutOptions.table.map(\.name))
    func eachOptionCounts(name: String) throws {
        let option = try #require(LayoutOptions.option(named: name))
        var changed = LayoutOptions()
        try changed.set([(name, option.example)])
        let defaults = LayoutOptions()
        #expect(changed.recorded != defaults.recorded, "--\(name) \(option.example) left the record unchanged")
        #expect(Fingerprint.entityTag(content: "c", options: changed, spread: 1)
                != Fingerprint.entityTag(content: "c", options: defaults, spread: 1))
        // Setting the same value again changes nothing more.
        var twice = changed
        try twice.set([(name, option.example)])
        #expect(twice.recorded == changed.recorded)
    }

    /// Every stored field of LayoutOptions (and of its encoding), as text.
    static func fields(_ options: LayoutOptions) -> [String: String] {
        var fields: [String: String] = [:]
        for child in Mirror(reflecting: options).children {
            guard let label = child.label else { continue }
            if let encoding = child.value as? SpreadEncoding {
                for inner in Mirror(reflecting: encoding).children {
                    fields[label + "." + (inner.label ?? "?")] = "\(inner.value)"
                }
            } else {
                fields[label] = "\(child.value)"
            }
        }
        return fields
    }

    @Test("Every field of LayoutOptions is reached by an option of the table")
    func everyFieldHasAnOption() throws {
        let defaults = Self.fields(LayoutOptions())
        var reached = Set<String>()
        for option in LayoutOptions.table {
            var changed = LayoutOptions()
            try changed.set([(option.name, option.example)])
            let after = Self.fields(changed)
            reached.formUnion(defaults.keys.filter { defaults[$0] != after[$0] })
        }
        #expect(reached == Set(defaults.keys), "fields no option sets: \(Set(defaults.keys).subtracting(reached).sorted())")
    }

    @Test("The record of the defaults is what manifests have always held, so fingerprints did not move")
    func recordUnchanged() {
        #expect(LayoutOptions().recorded == "size=2048x1536 layout=spread direction=auto cover=auto page-aspect=771x1200 "
                + "wide-threshold=1.0 solo=[] blank-before=[] gap=0.0 fit=contain align=spine background=#000000 "
                + "blank=#FFFFFF strip=false max-pixels=200000000 color-manage=true format=png quality=85 "
                + "lossless=false compression=default")
    }

    @Test("Bad values name the option and what it takes; values are read in any letter case")
    func badValues() throws {
        var options = LayoutOptions()
        #expect { try options.set([("direction", "sideways")]) } throws: {
            ($0 as? MihirakiError)?.message == "bad value for --direction: sideways (ltr, rtl or auto)"
        }
        #expect { try options.set([("solo", "0")]) } throws: {
            ($0 as? MihirakiError)?.spelled(.query).message == "bad value for solo: 0 (page numbers from 1 to 1000000)"
        }
        // The server's own limit stays its flag: no query parameter sets it.
        let limit = MihirakiError(.usage, "--size 9x9 is more than the 10-pixel limit (--max-pixels)")
        #expect(limit.spelled(.query).message == "size 9x9 is more than the 10-pixel limit (--max-pixels)")
        #expect(limit.spelled(.keyword).message == "size 9x9 is more than the 10-pixel limit (max_pixels)")
        #expect { try options.set([("page-aspect", "0")]) } throws: {
            ($0 as? MihirakiError)?.spelled(.keyword).message.hasPrefix("bad value for page_aspect: 0") == true
        }
        #expect { try options.set([("nosuch", "1")]) } throws: { ($0 as? MihirakiError)?.message == "unknown option --nosuch" }
        try options.set([("direction", "RTL"), ("format", "JPG"), ("layout", "Single"), ("solo", "3,5"), ("solo", "7")])
        #expect(options.direction == .rtl && options.encoding.format == .jpeg && options.layout == .single)
        #expect(options.soloPages == [3, 5, 7])
    }
}
