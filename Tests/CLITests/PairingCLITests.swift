import Foundation
import MihirakiTestSupport
import Testing

/// `--pairing auto` on books from the labelled set's generator
/// (scripts/make-pairing-set.py, a fixed seed): what it finds, how it repairs,
/// that it is deterministic, and that a bad page still fails its book.
@Suite("Command line: automatic pairing", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct PairingCLITests {
    struct Labels: Decodable {
        struct Book: Decodable {
            var name: String
            var direction: String
            var splits: [[Int]]
            var negatives: [[Int]]
        }
        var books: [Book]
    }

    struct PlanJSON: Decodable {
        struct Spread: Decodable, Equatable {
            struct Slot: Decodable, Equatable { var page: Int? }
            var slots: [Slot]
        }
        var pairing: String?
        var splits: [[Int]]?
        var spreads: [Spread]
    }

    /// The shared seed-7 set (``Fixtures/pairingSet()``): its folder, and its first `books` books.
    static func sharedSet(books: Int) throws -> (path: String, labels: Labels) {
        let path = try Fixtures.pairingSet()
        var labels = try JSONDecoder().decode(Labels.self, from: Data(contentsOf: URL(fileURLWithPath: path + "/labels.json")))
        labels.books = Array(labels.books.prefix(books))
        return (path, labels)
    }

    static func makeSet(_ folder: TemporaryFolder, seed: Int, books: Int) throws -> Labels {
        let script = Fixtures.packageRoot.path + "/scripts/make-pairing-set.py"
        let made = try runTool("/usr/bin/env", ["python3", script, folder.path, "--seed", String(seed), "--books", String(books)])
        try #require(made.status == 0, "\(made.stderr)")
        return try JSONDecoder().decode(Labels.self, from: Data(contentsOf: URL(fileURLWithPath: folder.path + "/labels.json")))
    }

    func plan(_ arguments: [String]) throws -> PlanJSON {
        try JSONDecoder().decode(PlanJSON.self, from: Data(try planOutput(["--json"] + arguments).utf8))
    }

    @Test("Splits found from the pixels: no false split, no hard negative taken, most splits found; the plan is the static plan with a blank before each broken split; the same with 1 and 2 jobs")
    func findsAndRepairs() throws {
        let (set, labels) = try Self.sharedSet(books: 4)
        var found = 0, total = 0
        for book in labels.books {
            let path = set + "/" + book.name
            let auto = try plan([path, "--direction", book.direction, "--pairing", "auto", "--jobs", "1"])
            #expect(auto.pairing == "auto")
            let detected = Set(auto.splits ?? [])
            #expect(detected.isSubset(of: Set(book.splits)), "\(book.name): false split in \(detected.sorted { $0[0] < $1[0] })")
            #expect(detected.isDisjoint(with: Set(book.negatives)), "\(book.name): a hard negative taken")
            found += detected.count
            total += book.splits.count
            // Determinism across jobs.
            let twoJobs = try plan([path, "--direction", book.direction, "--pairing", "auto", "--jobs", "2"])
            #expect(twoJobs.splits == auto.splits && twoJobs.spreads == auto.spreads)
            // Every detected split shares a spread.
            for split in detected {
                #expect(auto.spreads.contains { Set($0.slots.compactMap(\.page)).isSuperset(of: split) }, "\(book.name) \(split)")
            }
            // The repair is the blank-before rule: the static plan with the blanks --explain reports.
            let explained = try planOutput([path, "--direction", book.direction, "--pairing", "auto", "--explain"])
            let blanks = explained.split(separator: "\n").filter { $0.hasPrefix("# pages ") }.compactMap { line in
                line.range(of: "a blank before page ").map { Int(line[$0.upperBound...].prefix { $0.isNumber })! }
            }
            #expect(explained.split(separator: "\n").filter { $0.hasPrefix("# pages ") && $0.contains("one artwork") }.count
                    == detected.count)
            let repaired = try plan([path, "--direction", book.direction] + blanks.flatMap { ["--blank-before", String($0)] })
            #expect(repaired.spreads == auto.spreads, "\(book.name)")
            if book.splits.isEmpty {
                #expect(try plan([path, "--direction", book.direction]).spreads == auto.spreads)
            }
        }
        #expect(total > 0 && Double(found) >= 0.75 * Double(total), "found \(found) of \(total)")
    }

    @Test("The server answers pairing=auto with the command line's splits and spreads, and pairing=static as before")
    func server() throws {
        let (set, labels) = try Self.sharedSet(books: 2)
        let server = try RunningServer(root: set)
        defer { server.stop() }
        for book in labels.books {
            let cli = try plan([set + "/" + book.name, "--direction", book.direction, "--pairing", "auto"])
            let answer = try httpGet(server, "/api/books/\(book.name)/manifest?direction=\(book.direction)&pairing=auto")
            #expect(answer.status == 200, "\(answer.text)")
            let served = try JSONDecoder().decode(PlanJSON.self, from: answer.body)
            #expect(served.pairing == "auto" && served.splits == cli.splits && served.spreads == cli.spreads)
            let plain = try httpGet(server, "/api/books/\(book.name)/manifest?direction=\(book.direction)")
            #expect(!plain.text.contains("\"splits\""))
        }
    }

    @Test("Static pairing (the default) writes no pairing keys; a page that cannot be decoded fails its book with --pairing auto")
    func staticAndBadPage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let labels = try Self.makeSet(folder, seed: 8, books: 1)
        let path = folder.path + "/" + labels.books[0].name
        let plain = try mihiraki(["plan", "--json", path])
        #expect(!plain.stdout.contains("\"pairing\"") && !plain.stdout.contains("\"splits\""))
        let page = path + "/p002.jpg"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: page)))
        try Data(bytes.prefix(bytes.count / 3)).write(to: URL(fileURLWithPath: page))
        let header = try mihiraki(["plan", path])  // headers only: the page's header is intact
        #expect(header.status == 0)
        let auto = try mihiraki(["plan", path, "--pairing", "auto"])
        #expect(auto.status == 1 && auto.stderr.contains("p002.jpg"), "\(auto.status) \(auto.stderr)")
        #expect(auto.stderr.split(separator: "\n").count == 1, "\(auto.stderr)")
    }

    @Test("The photo family's negatives of one picture show it at the spine at heights 15 % of a page apart; two windows drawn independently often do not")
    func oneDrawingNegativesDoNotContinue() throws {
        // A synthetic picture in place of the wallpapers, which only the
        // benchmark installs; the windows depend on its size alone.
        let run = try runWithGenerator("""
        import pairing_families as f
        photo = object.__new__(f.Photo)
        photo.sources, photo.cache = ["synthetic"], {0: Image.new("RGB", (1920, 1080))}
        rng = np.random.default_rng(3)
        w, h = 2 * f.PHOTO_W, f.PHOTO_H
        windows = [f.spine_distance(photo.window(rng, 0, w, h), photo.window(rng, 0, w, h)) for _ in range(200)]
        photo.cut = lambda index, box, w, h: box
        apart = [f.spine_distance(*photo.apart(rng, 0, w, h)) for _ in range(200)]
        print(sum(d < f.SPINES_APART for d in windows), min(apart), f.SPINES_APART)
        """)
        try #require(run.status == 0, "\(run.stderr)")
        let figures = Self.figures(run)
        try #require(figures.count == 3, "\(run.stdout)")
        #expect(figures[0] > 20, "independent windows at one height: \(figures[0]) of 200")
        #expect(figures[1] >= figures[2], "a negative's windows \(figures[1]) apart")
    }

    @Test("Two crops of one picture whose slanted boundary meets at the spine read as continuing however far apart in height; a level boundary at other heights does not")
    func slantedCropsContinue() throws {
        // A boundary at a slope of 0.5: a window 60 rows down and 120
        // columns on shows it where the first window's other half does,
        // though its spine is 0.3 of a page from the first one's.
        let run = try runWithGenerator("""
        import pairing_families as f
        h, w = 200, 120
        rows, cols = np.indices((2 * h, 6 * w))
        def picture(boundary):
            upper = (rows < boundary)[..., None]
            return np.where(upper, [200.0, 180.0, 140.0], [40.0, 90.0, 160.0]).astype(np.float32)
        slanted, level = picture(0.5 * cols + 20), picture(np.full(cols.shape, 150.0))
        first, second = (0, 0, 2 * w, h), (120, 60, 120 + 2 * w, 60 + h)
        cut = lambda a, box: a[box[1]:box[3], box[0]:box[2]]
        figures = [f.spine_distance(first, second), f.SPINES_APART, f.CONTINUES]
        for direction in ("ltr", "rtl"):
            figures.append(f.continuation_ratio(cut(slanted, first), cut(slanted, second), direction))
            figures.append(f.continuation_ratio(cut(level, first), cut(level, (0, 60, 2 * w, 60 + h)), direction))
        # Only the strip at the spine counts: on the second page's side in
        # reading order (the right half left to right, the left half right to left).
        def texture(seed):
            g = np.random.default_rng(seed).normal(0, 8, (h, 2 * w, 3)).cumsum(axis=0)
            return (g - g.min() + 20).astype(np.float32)
        x, other = texture(1), texture(2)
        for direction, strip in (("ltr", slice(w, w + 16)), ("rtl", slice(w - 16, w))):
            y = other.copy()
            y[:, strip] = x[:, strip]
            figures += [f.continuation_ratio(x, y, direction), f.continuation_ratio(x, other, direction)]
        print(" ".join(f"{x:.3f}" for x in figures))
        """)
        try #require(run.status == 0, "\(run.stderr)")
        let figures = Self.figures(run)
        try #require(figures.count == 11, "\(run.stdout)")
        let (distance, apart, continues) = (figures[0], figures[1], figures[2])
        #expect(distance >= apart, "the two windows are \(distance) apart")
        for (slanted, level) in [(figures[3], figures[4]), (figures[5], figures[6])] {
            #expect(slanted < continues / 4, "the slanted boundary's crops: \(slanted)")
            #expect(level > continues, "the level boundary's crops at other heights: \(level)")
        }
        for (same, unlike) in [(figures[7], figures[8]), (figures[9], figures[10])] {
            #expect(same < 0.01, "the same strip at the spine: \(same)")
            #expect(unlike > continues, "another texture at the spine: \(unlike)")
        }
    }

    @Test("The measurement counts a pair labelled continuing neither way, and the goal read at the middle of the thresholds the other families allow")
    func continuingAndTheMiddle() throws {
        let run = try runWithGenerator("""
        import contextlib, io
        # A photo book: a split read 0.90, two crops that continue at the
        # spine read 0.95, a hard negative read 0.40.
        ratios = {"3": 0.13, "5": 0.80}
        book = {"splits": [[1, 2]], "negatives": [[5, 6]], "continuing": [[a, a + 1] for a in m.pairing_families.continuing(ratios)],
                "seams": [{"pages": [1, 2], "score": 0.90}, {"pages": [3, 4], "score": 0.95}, {"pages": [5, 6], "score": 0.40}]}
        figures = list(bp.measure({"books": [book]}, 0.5)) + [bp.lowest_clean_threshold({"books": [book]})]
        # Three families of twenty splits each, read 0.71 to 0.90 (the goal's
        # 0.93 needs 19: up to 0.72), and one pair that is not one artwork,
        # read 0.600, 0.639 and 0.619.
        def family(negative):
            books = [{"name": f"book{k}", "splits": [[1, 2]], "negatives": [], "continuing": [],
                      "seams": [{"pages": [1, 2], "score": round(0.71 + k / 100, 3)}]} for k in range(20)]
            books.append({"name": "negative", "splits": [], "negatives": [[1, 2]], "continuing": [], "seams": [{"pages": [1, 2], "score": negative}]})
            return {"books": books, "unjudged": 0}
        families = {"a": family(0.600), "b": family(0.639), "c": family(0.619)}
        figures += list(bp.middle_threshold([families["a"], families["c"]]))
        figures += list(bp.middle_threshold([family(0.75)]))
        with contextlib.redirect_stdout(io.StringIO()):
            figures += list(bp.goal(families, ["a", "b", "c"]))
        print(" ".join(f"{x:.3f}" for x in figures))
        """)
        try #require(run.status == 0, "\(run.stderr)")
        let figures = Self.figures(run)
        try #require(figures.count == 15, "\(run.stdout)")
        // At 0.5 the split is found; the continuing pair, taken, is no false split.
        #expect(Array(figures[0..<5]) == [1, 0, 1, 0, 1], "\(figures)")
        // The lowest threshold with no false split is over the hard negative,
        // not over the continuing pair's 0.95.
        #expect(figures[5] == 0.401, "lowest threshold with no false split: \(figures[5])")
        // a and c meet the goal from 0.620, over c's pair, to 0.720: the middle, 0.670.
        #expect(Array(figures[6..<9]) == [0.67, 0.62, 0.72], "\(figures)")
        // A family whose pair stands over where it reaches the goal allows no
        // range: its lowest threshold with no false split.
        #expect(Array(figures[9..<12]) == [0.751, 0.751, 0.72], "\(figures)")
        // At the others' lowest threshold b takes its 0.639 pair; at the
        // middle every family meets the goal, and one threshold serves all.
        #expect(Array(figures[12..<15]) == [2, 1, 3], "\(figures)")
    }

    /// The numbers a script printed on one line, separated by spaces.
    private static func figures(_ run: Run) -> [Double] {
        run.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Runs the Python `body` with scripts/make-pairing-set.py loaded as `m`
    /// and scripts/bench-pairing as `bp` (numpy as `np`, Pillow's `Image`),
    /// `folder` a temporary folder's path.
    private func runWithGenerator(_ body: String, limit: TimeInterval = 600) throws -> Run {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preamble = """
        import importlib.machinery, importlib.util, os, sys
        import numpy as np
        from PIL import Image
        scripts, folder = sys.argv[1], sys.argv[2]
        sys.path.insert(0, scripts)
        spec = importlib.util.spec_from_file_location("make_pairing_set", os.path.join(scripts, "make-pairing-set.py"))
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        loader = importlib.machinery.SourceFileLoader("bench_pairing", os.path.join(scripts, "bench-pairing"))
        bp = importlib.util.module_from_spec(importlib.util.spec_from_loader("bench_pairing", loader))
        loader.exec_module(bp)

        """
        return try runTool("/usr/bin/env", ["python3", "-c", preamble + body, Fixtures.packageRoot.path + "/scripts", folder.path],
                           limit: limit)
    }

    @Test("The drawn family's colour negatives are cut from two pictures, a background's light and dark variants being one")
    func colourNegativesFromTwoPictures() throws {
        let run = try runWithGenerator("""
        sources = []
        for name, shade in (("dune-l", 40), ("dune-d", 200), ("wood", 120)):
            a = (np.indices((300, 400)).sum(axis=0) * 7 + shade) % 256
            path = os.path.join(folder, name + ".png")
            Image.fromarray(a.astype(np.uint8)).convert("RGB").save(path)
            sources.append(path)
        rng = np.random.default_rng(5)
        drawn = [m.colour_art(rng, 160, 120, sources, avoid="dune")[1] for _ in range(40)]
        print(m.picture(sources[0]) == m.picture(sources[1]), sorted(set(drawn)))
        """)
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "True ['wood']", "\(run.stdout)")
    }

    @Test("A colour negative asked of a library holding one picture (its light and dark variants) is one clear error, not an endless draw")
    func colourNegativeWithOnePicture() throws {
        let run = try runWithGenerator("""
        sources = []
        for name in ("dune-l", "dune-d"):
            path = os.path.join(folder, name + ".png")
            Image.new("RGB", (400, 300), (90, 120, 30)).save(path)
            sources.append(path)
        m.colour_art(np.random.default_rng(5), 160, 120, sources, avoid="dune")
        """, limit: 20)
        #expect(run.status == 1, "\(run.status) \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("two pictures") && lines[0].contains("dune"), "\(run.stderr)")
    }
}
