import Foundation
import MihirakiTestSupport
import Testing

/// What Pillow, an independent decoder, makes of each file: format, mode, size and one pixel.
struct PillowView: Decodable, Equatable {
    var format: String
    var mode: String
    var size: [Int]
    var pixel: [Int]
}

/// Opens `files` with Pillow and reads the pixel at (x, y) of each.
func pillow(_ files: [String], x: Int, y: Int) throws -> [String: PillowView] {
    let script = """
    import json, sys
    from PIL import Image
    x, y = int(sys.argv[1]), int(sys.argv[2])
    out = {}
    for path in sys.argv[3:]:
        im = Image.open(path); im.load()
        px = im.convert("RGBA").getpixel((x, y))
        out[path] = {"format": im.format, "mode": im.mode, "size": list(im.size), "pixel": list(px)}
    print(json.dumps(out))
    """
    let run = try runTool("/usr/bin/env", ["python3", "-c", script, String(x), String(y)] + files)
    guard run.status == 0 else { throw MihirakiTestFailure("Pillow: \(run.stderr)") }
    return try JSONDecoder().decode([String: PillowView].self, from: Data(run.stdout.utf8))
}

struct MihirakiTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@Suite("Command line: output formats", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct FormatCLITests {
    let sample = Fixtures.sampleBook.path

    /// WebP pages made by Pillow: a gray picture read from its YUV as gray,
    /// a colour one, one whose colour is only in its last rows, and a
    /// lossless gray one. Each spread must equal, byte for byte, the spread
    /// of the same pages as PNGs of what Pillow decodes (gray ones as its red
    /// channel): one gray, the rest begun gray and turned RGB at the colour page.
    @Test("WebP pages: gray ones make gray spreads, a colour page turns its spread RGB; the same bytes as the pages decoded by Pillow")
    func webpPages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = """
        import sys, random
        from PIL import Image
        out = sys.argv[1]
        random.seed(3)
        w, h = 300, 420
        gray = Image.new("L", (w, h))
        gray.putdata([(x + y // 2 + random.randrange(40)) % 256 for y in range(h) for x in range(w)])
        colour = Image.merge("RGB", (gray, gray.point(lambda v: v // 2), gray.point(lambda v: 255 - v)))
        late = gray.convert("RGB")
        late.paste((250, 20, 20), (0, h - 12, w, h))
        pages = [("p1", gray.convert("RGB"), {"quality": 80}), ("p2", late, {"quality": 80}),
                 ("p3", colour, {"quality": 80}), ("p4", gray.convert("RGB"), {"lossless": True})]
        for name, picture, options in pages:
            picture.save(f"{out}/webp/{name}.webp", **options)
            decoded = Image.open(f"{out}/webp/{name}.webp").convert("RGB")
            r, g, b = decoded.split()
            is_gray = name in ("p1", "p4")
            (r if is_gray else decoded).save(f"{out}/png/{name}.png")
        """
        try FileManager.default.createDirectory(atPath: folder.path + "/webp", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/png", withIntermediateDirectories: true)
        let made = try runTool("/usr/bin/env", ["python3", "-c", script, folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        for book in ["webp", "png"] {
            let run = try mihiraki(["render", folder.path + "/" + book, "-o", folder.path + "/out-" + book, "--size", "900x600",
                                    "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let spreads = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out-png/png").filter { $0.hasSuffix(".png") }
        #expect(spreads.count == 3)  // [x|1] [2|3] [4|x]
        for name in spreads {
            let ours = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/out-webp/webp/" + name))
            let reference = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/out-png/png/" + name))
            #expect(ours == reference, "\(name)")
        }
        let views = try pillow(spreads.sorted().map { folder.path + "/out-webp/webp/" + $0 }, x: 0, y: 0)
        #expect(spreads.sorted().map { views[folder.path + "/out-webp/webp/" + $0]!.mode } == ["L", "RGB", "L"])
    }

    /// `--compression fast` writes its own deflate stream (one block, codes
    /// built per image, zero runs as matches); Pillow, through zlib, must read
    /// the same samples as from the default writer's files.
    @Test("--compression fast: Pillow reads every spread with the same samples and mode as the default writer's")
    func fastCompression() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (compression, jobs) in [("fast", "1"), ("default", "1"), ("fast", "2")] {
            let run = try mihiraki(["render", sample, "-o", folder.path + "/" + compression + jobs, "--compression", compression,
                                    "--size", "900x600", "--jobs", jobs, "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        // The same bytes with any number of workers.
        let one = folder.path + "/fast1/sample-book", two = folder.path + "/fast2/sample-book"
        for name in try FileManager.default.contentsOfDirectory(atPath: one) {
            #expect(FileManager.default.contentsEqual(atPath: one + "/" + name, andPath: two + "/" + name), "\(name)")
        }
        let script = """
        import os, sys
        from PIL import Image
        fast, default = sys.argv[1], sys.argv[2]
        names = sorted(n for n in os.listdir(fast) if n.endswith(".png"))
        for name in names:
            a, b = Image.open(os.path.join(fast, name)), Image.open(os.path.join(default, name))
            a.load(); b.load()
            if (a.mode, a.size, a.tobytes()) != (b.mode, b.size, b.tobytes()):
                print("differs", name)
        print(len(names), "spreads", sorted({Image.open(os.path.join(fast, n)).mode for n in names}))
        """
        let run = try runTool("/usr/bin/env", ["python3", "-c", script, folder.path + "/fast1/sample-book",
                                               folder.path + "/default1/sample-book"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "8 spreads ['L', 'RGB']\n", "\(run.stdout)")
    }

    @Test("Every format: files Pillow opens at the canvas size, gray kept gray, the same bytes with 1 and 2 jobs",
          arguments: [("png", "PNG"), ("jpeg", "JPEG"), ("webp", "WEBP"), ("avif", "AVIF")])
    func everyFormat(format: String, pillowName: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var outputs: [[String: Data]] = []
        for jobs in ["1", "2"] {
            let out = folder.path + "/out" + jobs
            let run = try mihiraki(["render", sample, "-o", out, "--format", format, "--size", "x300", "--jobs", jobs,
                                    "--contact-sheet", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            let book = out + "/sample-book"
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: book) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: book + "/" + name))
            }
            outputs.append(files)
        }
        #expect(outputs[0] == outputs[1], "\(format): bytes differ between --jobs 1 and 2")
        let book = folder.path + "/out1/sample-book"
        let manifest = try JSONSerialization.jsonObject(with: outputs[0]["manifest.json"]!) as! [String: Any]
        let canvas = manifest["canvas"] as! [String: Int]
        let spreads = (manifest["spreads"] as! [[String: Any]]).map { $0["file"] as! String }
        let ext = format == "jpeg" ? "jpg" : format
        #expect(Set(outputs[0].keys) == Set(spreads + ["manifest.json", "contact-sheet." + ext]))
        #expect(spreads.allSatisfy { $0.hasSuffix("." + ext) })
        let views = try pillow(spreads.map { book + "/" + $0 } + [book + "/contact-sheet." + ext], x: 0, y: 0)
        for (path, view) in views {
            #expect(view.format == pillowName, "\(path)")
            if !path.contains("contact-sheet") { #expect(view.size == [canvas["width"]!, canvas["height"]!], "\(path)") }
        }
        // [2|3] is all gray: one channel in PNG, JPEG and AVIF; WebP has no gray layout.
        let grayMode = views[book + "/spread-002." + ext]!.mode
        #expect(grayMode == (format == "webp" ? "RGB" : "L"), "\(format): \(grayMode)")
    }

    @Test("libavif and libjxl are loaded only when a page or the output needs them")
    func optionalCodecsLoadedOnUse() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("avif/p1.avif", try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("formats/icc.avif")))
        try folder.write("jxl/p1.jxl", try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("formats/gray.jxl")))
        func loaded(_ arguments: [String]) throws -> (avif: Bool, jxl: Bool) {
            let (run, libraries) = try mihirakiOpening(arguments, trace: folder.path + "/trace")
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            return (libraries.contains { $0.contains("libavif.so") }, libraries.contains { $0.contains("libjxl.so") })
        }
        let out = folder.path + "/out"
        #expect(try loaded(["render", Fixtures.sampleBook.path, "-o", out + "1", "--quiet"]) == (false, false))
        #expect(try loaded(["render", folder.path + "/avif", "-o", out + "2", "--quiet"]) == (true, false))
        #expect(try loaded(["render", folder.path + "/jxl", "-o", out + "3", "--quiet"]) == (false, true))
        #expect(try loaded(["render", Fixtures.sampleBook.path, "-o", out + "4", "--quiet", "--format", "avif",
                            "--size", "x100"]) == (true, false))
    }

    @Test("Without libavif installed: an AVIF page and --format avif are one line naming the library; other books render")
    func withoutLibavif() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("avif/p1.avif", try Fixtures.bytes(Fixtures.testImages.appendingPathComponent("formats/icc.avif")))
        func withoutAVIF(_ arguments: [String]) throws -> Run { try mihirakiWithout("libavif.so.15", arguments) }
        let page = try withoutAVIF(["render", folder.path + "/avif", "-o", folder.path + "/out1"])
        #expect(page.status == 1 && page.stderr.contains("avif/p1.avif: libavif.so.15 could not be loaded"), "\(page.stderr)")
        let output = try withoutAVIF(["render", Fixtures.sampleBook.path, "-o", folder.path + "/out2", "--format", "avif"])
        #expect(output.status == 2 && output.stderr.split(separator: "\n").count == 1
                && output.stderr.contains("libavif.so.15 could not be loaded"), "\(output.stderr)")
        let jpeg = try withoutAVIF(["render", Fixtures.sampleBook.path, "-o", folder.path + "/out3", "--quiet"])
        #expect(jpeg.status == 0, "\(jpeg.stderr)")
    }

    @Test("libarchive is loaded only for a book that needs it; without it, a 7z book is one line naming the library")
    func archiveLibraryLoadedOnUse() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pages = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleBook.path).sorted()
        let made = try runTool("/usr/bin/bsdtar", ["-cf", folder.path + "/vol.cb7", "--format", "7zip",
                                                   "-C", Fixtures.sampleBook.path] + pages)
        try #require(made.status == 0, "\(made.stderr)")
        func opensLibarchive(_ arguments: [String]) throws -> Bool {
            let (run, libraries) = try mihirakiOpening(arguments, trace: folder.path + "/trace")
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            return libraries.contains { $0.contains("libarchive.so") }
        }
        #expect(try !opensLibarchive(["render", Fixtures.sampleBook.path, "-o", folder.path + "/out1", "--quiet"]))
        #expect(try opensLibarchive(["render", folder.path + "/vol.cb7", "-o", folder.path + "/out2", "--quiet"]))
        func withoutLibarchive(_ arguments: [String]) throws -> Run { try mihirakiWithout("libarchive.so.13", arguments) }
        let archive = try withoutLibarchive(["render", folder.path + "/vol.cb7", "-o", folder.path + "/out3"])
        #expect(archive.status == 1 && archive.stderr.contains("vol.cb7") && archive.stderr.contains("libarchive.so.13 could not be loaded (install it to read RAR, 7z and tar books)"),
                "\(archive.stderr)")
        let plain = try withoutLibarchive(["render", Fixtures.sampleBook.path, "-o", folder.path + "/out4", "--quiet"])
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    @Test("JPEG has no alpha: a transparent background is flattened onto --blank; PNG keeps it see-through")
    func jpegFlattensOntoBlank() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var pixels: [String: [Int]] = [:]
        for format in ["png", "jpeg"] {
            let out = folder.path + "/" + format
            let run = try mihiraki(["render", sample, "-o", out, "--format", format, "--size", "900x300",
                                    "--background", "transparent", "--blank", "#FF0000", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            let file = out + "/sample-book/spread-002." + (format == "jpeg" ? "jpg" : "png")
            let view = try pillow([file], x: 2, y: 150)[file]!
            pixels[format] = view.pixel
            if format == "jpeg" { #expect(view.mode == "RGB") }
        }
        #expect(pixels["png"]![3] == 0, "the PNG's margin is transparent: \(pixels["png"]!)")
        let red = pixels["jpeg"]!
        #expect(red[0] > 240 && red[1] < 15 && red[2] < 15 && red[3] == 255, "the JPEG's margin is the blank colour: \(red)")
    }

    @Test("Settings a format cannot take are usage errors: exit 2, one line", arguments: [
        (["--format", "jpeg", "--quality", "0"], "--quality"),
        (["--format", "webp", "--quality", "101"], "--quality"),
        (["--format", "jpeg", "--lossless"], "--lossless"),
        (["--format", "webp", "--size", "17000x1000"], "webp"),
        (["--format", "gif"], "format"),
    ])
    func badSettings(flags: [String], named: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try mihiraki(["render", sample, "-o", folder.path + "/out"] + flags)
        #expect(run.status == 2, "\(flags): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(named), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/sample-book"))
    }
}
