import Foundation
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing

/// Every file under `root` (dot-files included) and its bytes.
func tree(_ root: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let name = enumerator?.nextObject() as? String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + name))
        }
    }
    return files
}

/// Each file's inode and modification time: every write goes to a
/// temporary renamed into place, so a rewritten file has a new inode even
/// within the clock's resolution.
func modificationTimes(_ root: String) throws -> [String: String] {
    try tree(root).keys.reduce(into: [:]) { times, name in
        let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + name)
        times[name] = "\(attributes[.systemFileNumber] ?? "?") \(attributes[.modificationDate] ?? "?")"
    }
}

@Suite("Command line: shards, incremental runs, concurrent writers", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct ShardCLITests {
    /// Twelve small books, folders and archives, each with its own pages.
    func makeLibrary(_ folder: TemporaryFolder, books: Int = 12, pageSize: (Int, Int) = (30, 45)) throws {
        for b in 1...books {
            let pages = try (1...(3 + b % 4)).map { p in
                try Fixtures.solidPNG(width: pageSize.0, height: pageSize.1, [UInt8(b * 17 % 256), UInt8(p * 40), 90])
            }
            if b % 3 == 0 {
                try folder.writeArchive("library/vol\(b).cbz", pages.enumerated().map { ("p\($0.offset + 1).png", $0.element) })
            } else {
                for (p, page) in pages.enumerated() { try folder.write("library/vol\(b)/p\(p + 1).png", page) }
            }
        }
    }

    func books(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path + "/library").sorted().map { folder.path + "/library/" + $0 }
    }

    let small = ["--size", "160x120", "--quiet", "--jobs", "1"]

    @Test("Three shards at once into one folder end byte-identical to one run; each book written once")
    func shardsTogether() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try makeLibrary(folder)
        let all = try books(folder)
        #expect(try mihiraki(["render"] + all + ["-o", folder.path + "/single"] + small).status == 0)
        let shards = try (1...3).map { try startMihiraki(["render"] + all + ["-o", folder.path + "/shared", "--shard", "\($0)/3"] + small) }
        for shard in shards { shard.waitUntilExit(); #expect(shard.terminationStatus == 0) }
        #expect(try tree(folder.path + "/shared") == tree(folder.path + "/single"))
        // The summary names the shard's share, and the shares add up to the library.
        let taken = try (1...3).map { k -> Int in
            let run = try mihiraki(["render"] + all + ["-o", folder.path + "/s\(k)", "--shard", "\(k)/3", "--size", "160x120"])
            let line = try #require(run.stderr.split(separator: "\n").last)
            #expect(line.contains("(shard \(k)/3: "), "\(line)")
            return try FileManager.default.contentsOfDirectory(atPath: folder.path + "/s\(k)").count
        }
        #expect(taken.reduce(0, +) == 12 && taken.allSatisfy { $0 > 0 })
        let bad = try mihiraki(["render"] + all + ["-o", folder.path + "/x", "--shard", "4/3"])
        #expect(bad.status == 2 && bad.stderr.contains("--shard"))
    }

    @Test("A book added between runs moves no other book to another shard")
    func addedBook() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try makeLibrary(folder)
        func shardBooks(_ k: Int, _ out: String) throws -> Set<String> {
            #expect(try mihiraki(["render"] + (try books(folder)) + ["-o", out, "--shard", "\(k)/3"] + small).status == 0)
            return Set(try FileManager.default.contentsOfDirectory(atPath: out))
        }
        let before = try (1...3).map { try shardBooks($0, folder.path + "/before\($0)") }
        try folder.write("library/vol99/p1.png", try Fixtures.solidPNG(width: 30, height: 45, [1, 2, 3]))
        let after = try (1...3).map { try shardBooks($0, folder.path + "/after\($0)") }
        for k in 0..<3 { #expect(after[k].subtracting(["vol99"]) == before[k]) }
        #expect(after.filter { $0.contains("vol99") }.count == 1)
        let said = try (1...3).map { try mihiraki(["plan", folder.path + "/library/vol99", "--shard", "\($0)/3"]).stdout }
        #expect(said.filter { $0.hasPrefix("# vol99: in shard") }.count == 1)
    }

    @Test("--incremental: nothing changed touches nothing; a page changed in content only is noticed; stale spreads removed")
    func incremental() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try makeLibrary(folder)
        try folder.write("library/vol1/p2.png", storedPNG(width: 30, height: 45, gray: 100))
        let out = folder.path + "/out"
        #expect(try mihiraki(["render"] + (try books(folder)) + ["-o", out] + small).status == 0)
        let times = try modificationTimes(out), files = try tree(out)
        let again = try mihiraki(["render"] + (try books(folder)) + ["-o", out, "--incremental", "--size", "160x120"])
        #expect(again.status == 0 && again.stderr.contains("0 spreads written") && again.stderr.contains("12 up to date"),
                "\(again.stderr)")
        #expect(try modificationTimes(out) == times && tree(out) == files)

        // vol1: a page replaced by one of the same size and modification time. vol2: a page removed.
        let page = folder.path + "/library/vol1/p2.png"
        let stamp = try FileManager.default.attributesOfItem(atPath: page)[.modificationDate] as! Date
        let replacement = storedPNG(width: 30, height: 45, gray: 200)
        #expect(replacement.count == (try Fixtures.bytes(URL(fileURLWithPath: page))).count)
        try Data(replacement).write(to: URL(fileURLWithPath: page))
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: page)
        let vol2 = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/library/vol2").sorted()
        try FileManager.default.removeItem(atPath: folder.path + "/library/vol2/" + vol2.last!)
        let changed = try mihiraki(["render"] + (try books(folder)) + ["-o", out, "--incremental", "--size", "160x120"])
        #expect(changed.status == 0 && changed.stderr.contains("10 up to date"), "\(changed.stderr)")
        let newTimes = try modificationTimes(out)
        for (name, time) in times where !name.hasPrefix("vol1/") && !name.hasPrefix("vol2/") { #expect(newTimes[name] == time, "\(name)") }
        #expect(try mihiraki(["render"] + (try books(folder)) + ["-o", folder.path + "/clean"] + small).status == 0)
        #expect(try tree(out) == tree(folder.path + "/clean"))
    }

    @Test("A plain render opens each page twice, for its header and to draw it; the fingerprint takes that read's CRC")
    func eachPageReadOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/book"
        try FileManager.default.copyItem(atPath: Fixtures.sampleBook.path, toPath: book)
        let (run, opened) = try mihirakiOpening(["render", book, "-o", folder.path + "/out", "--quiet"],
                                                trace: folder.path + "/trace")
        #expect(run.status == 0, "\(run.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: book).filter { $0.hasPrefix("page") }
        #expect(pages.count == 12)
        for page in pages { #expect(opened.filter { $0 == book + "/" + page }.count == 2, "\(page)") }
        // The same fingerprint as a run that takes it first: an incremental run finds the book up to date.
        let again = try mihiraki(["render", book, "-o", folder.path + "/out", "--incremental"])
        #expect(again.status == 0 && again.stderr.contains("1 up to date"), "\(again.stderr)")
    }

    @Test("kill -9 at any moment, then --incremental: byte-identical to a clean run, no temporaries")
    func killedAndResumed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try makeLibrary(folder, books: 6, pageSize: (600, 900))
        let options = ["--size", "1200x900", "--quiet", "--jobs", "2"]
        #expect(try mihiraki(["render"] + (try books(folder)) + ["-o", folder.path + "/clean"] + options).status == 0)
        let clean = try tree(folder.path + "/clean")
        var generator = SeededGenerator(seed: 13)
        for attempt in 0..<4 {
            let out = folder.path + "/out\(attempt)"
            let process = try startMihiraki(["render"] + (try books(folder)) + ["-o", out] + options)
            // Killed at a random point of the run: once a random number of spreads are final.
            let target = Int.random(in: 0...10, using: &generator)
            while process.isRunning && finalSpreads(out) < target { usleep(2000) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(try mihiraki(["render"] + (try books(folder)) + ["-o", out, "--incremental"] + options).status == 0)
            let resumed = try tree(out)
            let differing = Set(resumed.keys).union(clean.keys).filter { resumed[$0] != clean[$0] }.sorted()
            #expect(differing.isEmpty, "attempt \(attempt): target \(target), files that differ from a clean run: \(differing)")
        }
    }

    @Test("kill -9 of render takes its rendering process with it: nothing goes on writing after the command is gone")
    func killTakesTheRenderer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Noise pages, large spreads and one worker: the render lasts seconds after its first spread.
        let page = try noisePage(seed: 801)
        for book in 1...4 { for p in 1...6 { try folder.write("library/vol\(book)/p\(p).png", page) } }
        let out = folder.path + "/out"
        let process = try startMihiraki(["render"] + (try books(folder)) + ["-o", out, "--size", "3000x2000", "--quiet", "--jobs", "1"])
        var found: Int32?
        while process.isRunning && found == nil { found = renderers(under: process.processIdentifier).first }
        while process.isRunning && finalSpreads(out) < 1 { usleep(2000) }
        // Killed while the renderer draws its next spread, which left alone it would finish well within the wait.
        usleep(100_000)
        let written = finalSpreads(out)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let renderer = try #require(found, "no rendering process under the command")
        // The kernel kills it as its parent dies; the grace is for the kernel to take it down.
        let deadline = Date().addingTimeInterval(0.2)
        while isRunning(renderer) && Date() < deadline { usleep(2000) }
        #expect(!isRunning(renderer), "the rendering process \(renderer) went on after its command was killed")
        usleep(1_500_000)
        #expect(finalSpreads(out) == written, "\(written) spreads when the command was killed, \(finalSpreads(out)) after")
        if isRunning(renderer) { kill(renderer, SIGKILL) }
    }

    /// The rendering processes `render` (process `pid`) started, from /proc: its children told they are supervised.
    func renderers(under pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { child in
            guard parent(of: child) == pid, let environment = FileManager.default.contents(atPath: "/proc/\(child)/environ") else { return false }
            return environment.split(separator: 0).contains { $0.starts(with: Array("MIHIRAKI_SUPERVISED_FD=".utf8)) }
        }
    }

    @Test("Two full runs at once, and a writer paused mid-write while another run starts: both succeed, one run's bytes")
    func concurrentWriters() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Noise pages: their spreads are large PNGs, so a writer spends a while with a temporary open.
        let page = try noisePage(seed: 800)
        for p in 1...5 { try folder.write("library/noise/p\(p).png", page) }
        let options = ["--size", "3000x2000", "--quiet", "--jobs", "1", "--compression", "fast"]
        let all = try books(folder)
        #expect(try mihiraki(["render"] + all + ["-o", folder.path + "/clean"] + options).status == 0)
        let clean = try tree(folder.path + "/clean")

        let twice = try (1...2).map { _ in try startMihiraki(["render"] + all + ["-o", folder.path + "/twice"] + options) }
        for run in twice { run.waitUntilExit(); #expect(run.terminationStatus == 0) }
        #expect(try tree(folder.path + "/twice") == clean)

        // Catch the first writer while one of its temporaries exists, hold it there,
        // and let a second run start (and clean up) in the same folder.
        // A temporary lives only while a file is written, so a writer can
        // finish between two looks: it is started again, up to five times.
        let out = folder.path + "/paused"
        var first = try startMihiraki(["render"] + all + ["-o", out] + options)
        var caught = false
        for attempt in 1...5 where !caught {
            if attempt > 1 {
                first.waitUntilExit()
                try? FileManager.default.removeItem(atPath: out)
                first = try startMihiraki(["render"] + all + ["-o", out] + options)
            }
            while first.isRunning && !caught {
                Thread.sleep(forTimeInterval: 0.001)
                kill(first.processIdentifier, SIGSTOP)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: out + "/noise")) ?? []
                caught = names.contains { $0.hasSuffix(".tmp") }
                if !caught { kill(first.processIdentifier, SIGCONT) }
            }
        }
        #expect(caught, "five writers finished before a temporary was caught")
        let second = try mihiraki(["render"] + all + ["-o", out] + options)
        #expect(second.status == 0)
        kill(first.processIdentifier, SIGCONT)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(try tree(out) == clean)
    }

    @Test("The documentation's GNU parallel recipe runs as written and ends identical to one run")
    func parallelRecipe() throws {
        let article = "Sources/Mihiraki/Mihiraki.docc/ShardsAndIncrementalRuns.md"
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(article), encoding: .utf8)
        let marked = try #require(readme.components(separatedBy: "<!-- recipe: gnu-parallel -->\n```sh\n").dropFirst().first)
        let recipe = String(marked.prefix { $0 != "`" })
        #expect(recipe.hasPrefix("parallel "))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try makeLibrary(folder)
        let bin = URL(fileURLWithPath: try mihirakiPath()).deletingLastPathComponent().path
        let run = try runTool("/bin/bash", ["-c", "cd '\(folder.path)' && PATH='\(bin)':\"$PATH\" " + recipe])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try mihiraki(["render"] + (try books(folder)) + ["-o", folder.path + "/single", "--quiet"]).status == 0)
        #expect(try tree(folder.path + "/previews") == tree(folder.path + "/single"))
    }
}

/// An 800 × 1200 RGB PNG of noise: slow to draw and to write, so a run lasts.
func noisePage(seed: UInt64) throws -> [UInt8] {
    var noise = [UInt8](repeating: 0, count: 800 * 1200 * 3)
    var generator = SeededGenerator(seed: seed)
    noise.withUnsafeMutableBytes { raw in
        for i in 0..<raw.count / 8 { raw.storeBytes(of: generator.next(), toByteOffset: i * 8, as: UInt64.self) }
    }
    return try PNGEncoder.encode(PixelBuffer(width: 800, height: 1200, channels: 3, pixels: noise), compression: .fast)
}

/// The fields of `/proc/PID/stat` after the command name in parentheses
/// (which may itself hold spaces and parentheses), from 0: the state, the
/// parent, …, utime at 11 and stime at 12 (fields 3, 4, 14 and 15 of the line).
func statFields(of pid: Int32) -> [Substring]? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return nil }
    return text[text.index(after: close)...].split(separator: " ")
}

/// A process's state and parent.
func processStat(of pid: Int32) -> (state: Substring, parent: Int32)? {
    guard let fields = statFields(of: pid), fields.count > 1, let parent = Int32(fields[1]) else { return nil }
    return (fields[0], parent)
}

func parent(of pid: Int32) -> Int32? { processStat(of: pid)?.parent }

/// Alive and not a zombie (dead, waiting for its new parent to collect it).
func isRunning(_ pid: Int32) -> Bool {
    guard let state = processStat(of: pid)?.state else { return false }
    return state != "Z" && state != "X"
}
