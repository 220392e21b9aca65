import Foundation
import MihirakiCodecs
import MihirakiTestSupport
import Testing
@testable import Mihiraki

/// `bsdtar` (libarchive-tools) writes the archives, as a user's tools would.
func bsdtar(_ arguments: [String]) throws {
    let run = try runTool("/usr/bin/bsdtar", arguments)
    try #require(run.status == 0, "bsdtar \(arguments.joined(separator: " ")): \(run.stderr)")
}

@Suite("7z, tar and ZIP books written by bsdtar", .tags(.library), .timeLimit(.minutes(10)))
struct SequentialArchiveTests {
    /// A book as it is found in the wild: pages in a sub-folder, ComicInfo.xml
    /// saying right to left, macOS and dot-file junk, a text file.
    static func makeSource(_ folder: TemporaryFolder) throws {
        for page in 1...5 {
            try folder.write("src/ch1/p\(page).png",
                             try Fixtures.solidPNG(width: 30, height: 45, [UInt8(page * 40), 90, UInt8(250 - page * 30)]))
        }
        try folder.write("src/ComicInfo.xml", comicInfoXML(manga: "YesAndRightToLeft"))
        try folder.write("src/__MACOSX/ch1/._p1.png", [0, 1, 2])
        try folder.write("src/.DS_Store", [0])
        try folder.write("src/notes.txt", Array("not a page".utf8))
    }

    @Test("The same pages as a folder, CBZ, CB7, CBT and a .cbz that is really 7z give byte-identical spreads")
    func sameSpreads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.makeSource(folder)
        let src = folder.path + "/src"
        try bsdtar(["--format", "7zip", "-cf", folder.path + "/book.cb7", "-C", src, "."])
        try bsdtar(["--format", "ustar", "-cf", folder.path + "/book.cbt", "-C", src, "."])
        try bsdtar(["--format", "zip", "-cf", folder.path + "/book.cbz", "-C", src, "."])
        try bsdtar(["--format", "7zip", "-cf", folder.path + "/really7z.cbz", "-C", src, "."])
        var options = LayoutOptions()
        options.size = .exact(width: 200, height: 150)
        let paths = ["src", "book.cb7", "book.cbt", "book.cbz", "really7z.cbz"].map { folder.path + "/" + $0 }
        var spreads: [[String: Data]] = []
        for (index, path) in paths.enumerated() {
            let book = try Book.load(path)
            #expect(book.images.map(\.source) == (1...5).map { "ch1/p\($0).png" }, "\(path)")
            let plan = try SpreadPlan(book: book, options: options)
            #expect(plan.direction == .rtl && plan.text == "[1|x]\n[3|2]\n[5|4]\n", "\(path)")
            let out = folder.path + "/out\(index)"
            #expect(try BookRenderer.render([plan], into: out)[0].succeeded, "\(path)")
            let written = out + "/" + book.outputName
            spreads.append(try FileManager.default.contentsOfDirectory(atPath: written).filter { $0.hasPrefix("spread-") }
                .reduce(into: [:]) { $0[$1] = try Data(contentsOf: URL(fileURLWithPath: written + "/" + $1)) })
        }
        #expect(spreads[0].count == 3)
        for other in spreads.dropFirst() { #expect(other == spreads[0]) }
    }

    /// A tar stores a page hard-linked to another (a repeated page kept
    /// once) as a link entry, and any archiver keeps a symbolic link as a
    /// link: such pages were left out without a word, every spread after
    /// them shifted.
    @Test("Pages stored as hard or symbolic links in tar, 7z and ZIP are read as what they name; a link out of the archive, to nothing or round a loop fails naming it")
    func links() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let src = folder.path + "/src"
        for page in 1...3 {
            try folder.write("src/p\(page).png", try Fixtures.solidPNG(width: 30, height: 45, [UInt8(page * 60), 90, 40]))
        }
        try folder.write("src/ch/notes.txt", Array("not a page".utf8))
        try FileManager.default.linkItem(atPath: src + "/p3.png", toPath: src + "/p4.png")
        try FileManager.default.createSymbolicLink(atPath: src + "/p5.png", withDestinationPath: "ch/../p1.png")
        try FileManager.default.createSymbolicLink(atPath: src + "/p6.png", withDestinationPath: "p5.png")
        var options = LayoutOptions()
        options.size = .exact(width: 200, height: 150)
        let expected = try SpreadPlan(book: try Book.load(src), options: options)
        #expect(expected.text == "[x|1]\n[2|3]\n[4|5]\n[6|x]\n")
        for format in ["ustar", "7zip", "zip"] {
            let archive = folder.path + "/book-\(format).\(format == "zip" ? "cbz" : "cbt")"
            try bsdtar(["--format", format, "-cf", archive, "-C", src, "."])
            let book = try Book.load(archive)
            #expect(book.images.map(\.source) == (1...6).map { "p\($0).png" }, "\(format)")
            for page in 4...6 {
                let target = [4: "p3.png", 5: "p1.png", 6: "p1.png"][page]!
                #expect(try book.storage.read("p\(page).png") == (try Fixtures.bytes(URL(fileURLWithPath: src + "/" + target))), "\(format) p\(page)")
            }
            #expect(try SpreadPlan(book: book, options: options).text == expected.text, "\(format)")
        }

        for (link, target, problem) in [("/etc/passwd", "", "a link to /etc/passwd, outside the archive"),
                                        ("../../x.png", "", "a link to ../../x.png, outside the archive"),
                                        ("gone.png", "", "a link to gone.png, which the archive does not hold"),
                                        ("p9.png", "p4.png", "a link that leads round a loop of links")] {
            let bad = folder.path + "/bad"
            try? FileManager.default.removeItem(atPath: bad)
            try folder.write("bad/p1.png", try Fixtures.solidPNG(width: 30, height: 45, [9]))
            try FileManager.default.createSymbolicLink(atPath: bad + "/p4.png", withDestinationPath: link)
            if !target.isEmpty { try FileManager.default.createSymbolicLink(atPath: bad + "/" + link, withDestinationPath: target) }
            for format in ["ustar", "zip"] {
                let archive = folder.path + "/bad.\(format == "zip" ? "cbz" : "cbt")"
                try bsdtar(["--format", format, "-cf", archive, "-C", bad, "."])
                #expect(throws: MihirakiError(.badPage, path: archive + ":p4.png", problem)) {
                    _ = try SpreadPlan(book: try Book.load(archive), options: options)
                }
            }
        }
    }

    /// Debian has no RAR writer; ``RAR4Writer`` writes stored RAR 4 by the format's rules.
    @Test("RAR 4 (.cbr) gives the same spreads as the folder; a solid RAR 4 is refused in one line saying so")
    func rar() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.makeSource(folder)
        let entries = try ["ComicInfo.xml", "notes.txt"].map { ($0, try Fixtures.bytes(URL(fileURLWithPath: folder.path + "/src/" + $0))) }
            + (1...5).map { ("ch1/p\($0).png", try Fixtures.bytes(URL(fileURLWithPath: folder.path + "/src/ch1/p\($0).png"))) }
        let rar = try folder.write("book.cbr", RAR4Writer.archive(entries))
        var options = LayoutOptions()
        options.size = .exact(width: 200, height: 150)
        var written: [[Data]] = []
        for (index, path) in [folder.path + "/src", rar].enumerated() {
            let book = try Book.load(path)
            #expect(book.images.map(\.source) == (1...5).map { "ch1/p\($0).png" }, "\(path)")
            let plan = try SpreadPlan(book: book, options: options)
            #expect(plan.text == "[1|x]\n[3|2]\n[5|4]\n", "ComicInfo read from \(path)")
            let out = folder.path + "/out\(index)"
            #expect(try BookRenderer.render([plan], into: out)[0].succeeded)
            written.append(try (1...3).map { try Data(contentsOf: URL(fileURLWithPath: out + "/" + book.outputName + "/spread-00\($0).png")) })
        }
        #expect(written[0] == written[1])

        let solid = try folder.write("solid.cbr", RAR4Writer.archive(entries, solid: true))
        var failures: [MihirakiError] = []
        do {
            let plan = try SpreadPlan(book: try Book.load(solid), options: options)
            failures = try BookRenderer.render([plan], into: folder.path + "/out-solid").flatMap(\.errors)
        } catch let error as MihirakiError {
            failures = [error]
        }
        let failure = try #require(failures.first, "a solid RAR 4 was accepted")
        #expect(failure.description.hasPrefix(solid) && failure.description.contains("a solid RAR 4 archive")
                && !failure.description.contains("\n"), "\(failure)")
    }

    @Test("A cut-off 7z or tar book fails with one line naming it; the book beside it is written")
    func damaged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.makeSource(folder)
        try bsdtar(["--format", "7zip", "-cf", folder.path + "/whole.cb7", "-C", folder.path + "/src", "."])
        try bsdtar(["--format", "ustar", "-cf", folder.path + "/whole.cbt", "-C", folder.path + "/src", "."])
        for name in ["whole.cb7", "whole.cbt"] {
            let whole = try Fixtures.bytes(URL(fileURLWithPath: folder.path + "/" + name))
            let cut = try folder.write("cut-" + name, Array(whole.prefix(whole.count / 2)))
            var failures: [MihirakiError] = []
            do {
                let plan = try SpreadPlan(book: try Book.load(cut), options: LayoutOptions())
                failures = try BookRenderer.render([plan], into: folder.path + "/out").flatMap(\.errors)
            } catch let error as MihirakiError {
                failures = [error]
            }
            let failure = try #require(failures.first, "\(name) cut in half was accepted")
            #expect(failure.description.hasPrefix(cut) && !failure.description.contains("\n"), "\(failure)")
        }
        let good = try SpreadPlan(book: try Book.load(folder.path + "/whole.cb7"), options: LayoutOptions())
        #expect(try BookRenderer.render([good], into: folder.path + "/out")[0].succeeded)
    }

    @Test("A file that is no archive Mihiraki reads is one error naming it")
    func unknown() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("book.cb7", Array("this is no archive".utf8))
        #expect { _ = try Book.load(path) } throws: {
            ($0 as? MihirakiError)?.path == path && ($0 as? MihirakiError)?.description.contains("\n") == false
        }
        let other = try folder.write("book.mobi", Array("BOOKMOBI".utf8))
        #expect { _ = try Book.load(other) } throws: {
            ($0 as? MihirakiError)?.message == "not a folder or a book file Mihiraki reads (\(BookKind.names))"
        }
        // A PDF is a book now; one that is only its header is a damaged PDF, in one line.
        let pdf = try folder.write("book.pdf", Array("%PDF-1.4".utf8))
        #expect { _ = try Book.load(pdf) } throws: {
            let error = $0 as? MihirakiError
            return error?.path == pdf && error?.message.hasPrefix("a damaged PDF") == true && error?.description.contains("\n") == false
        }
    }

    @Test("ZIP entries in bzip2 or LZMA (written by Python's zipfile) are read through libarchive, same spreads")
    func zipMethods() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.makeSource(folder)
        let script = """
            import os, sys, zipfile
            src, out = sys.argv[1], sys.argv[2]
            for name, method in (("bzip2.cbz", zipfile.ZIP_BZIP2), ("lzma.cbz", zipfile.ZIP_LZMA)):
                with zipfile.ZipFile(os.path.join(out, name), "w", method) as z:
                    for root, _, files in os.walk(src):
                        for f in sorted(files):
                            path = os.path.join(root, f)
                            z.write(path, os.path.relpath(path, src))
            """
        let python = try runTool("/usr/bin/env", ["python3", "-c", script, folder.path + "/src", folder.path])
        try #require(python.status == 0, "\(python.stderr)")
        var options = LayoutOptions()
        options.size = .exact(width: 200, height: 150)
        let spreads = try ["src", "bzip2.cbz", "lzma.cbz"].map { name -> Data in
            let plan = try SpreadPlan(book: try Book.load(folder.path + "/" + name), options: options)
            #expect(plan.text == "[1|x]\n[3|2]\n[5|4]\n", "\(name)")
            return try Data(PNGEncoder.encode(try plan.renderSpread(at: 1)))
        }
        #expect(spreads[1] == spreads[0] && spreads[2] == spreads[0])
    }

    @Test("A ZIP entry's first bytes, deflated or stored, small or incompressible, are its whole data's first bytes")
    func zipPrefixes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = """
            import random, sys, zipfile
            rng = random.Random(7)
            noise = bytes(rng.getrandbits(8) for _ in range(600_000))
            text = b"".join(b"row %d of a page\\n" % i for i in range(40_000))
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                for method, tag in ((zipfile.ZIP_DEFLATED, "d"), (zipfile.ZIP_STORED, "s")):
                    for name, data in (("noise", noise), ("text", text), ("small", b"\\x89PNG"), ("empty", b"")):
                        z.writestr(f"{tag}-{name}.png", data, compress_type=method)
            """
        let python = try runTool("/usr/bin/env", ["python3", "-c", script, folder.path + "/b.cbz"])
        try #require(python.status == 0, "\(python.stderr)")
        let book = try Book.load(folder.path + "/b.cbz")
        #expect(book.images.count == 8)
        for page in book.images {
            let whole = try book.storage.read(page.source)
            for count in [1, 4096, 256 << 10, 1 << 20] {
                #expect(try book.storage.readPrefix(page.source, count: count) == Array(whole.prefix(count)), "\(page.source) \(count)")
            }
        }
    }
}
