import Foundation
import MihirakiTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `mihiraki serve` renders in worker processes: a page that crashes, hangs
/// or exhausts the memory of the worker drawing it, or a worker killed from
/// outside, costs that one request, and every other request is served as
/// before (SPEC §6). The faults come from the test hook MIHIRAKI_TEST_FAULT,
/// which stands for a failure no test can foresee.
@Suite("mihiraki serve: rendering workers", .serialized, .tags(.process, .server), .timeLimit(.minutes(10)))
struct WorkerCLITests {
    /// A library with one book whose page `bad-page.png` is the faulty one.
    static func library() throws -> ServedLibrary {
        let library = try ServedLibrary()
        _ = try library.folder.write("root/faulty/bad-page.png", try Fixtures.solidPNG(width: 60, height: 90, [30]))
        _ = try library.folder.write("root/faulty/p2.png", try Fixtures.solidPNG(width: 60, height: 90, [200]))
        return library
    }

    static let good = "/api/books/Series%20A%2Fvol1/spreads/2.png?size=x100"
    static let faulty = "/api/books/faulty/spreads/1.png?size=x100"

    @Test("A worker that crashes, hangs, runs out of memory or is killed costs its request a JSON error naming the book; the server goes on",
          arguments: [("crash", 500), ("hang", 504), ("allocate", 422), ("kill", 500)])
    func faults(kind: String, status: Int) async throws {
        try await onOwnThread {
            let library = try Self.library()
            defer { library.remove() }
            // The hang waits out the timeout; a crash or an allocation ends first, given time on a loaded machine.
            let timeout = kind == "hang" ? "4" : "30"
            let server = try RunningServer(root: library.root, ["--workers", "2", "--timeout", timeout, "--worker-memory", "512", "--quiet"],
                                           environment: ["MIHIRAKI_TEST_FAULT": "\(kind):bad-page.png"])
            defer { server.stop() }
            #expect(try httpGet(server, Self.good).status == 200)
            for round in 1...2 {
                let answer = try httpGet(server, Self.faulty)
                #expect(answer.status == status, "round \(round): \(answer.status) \(answer.text)")
                if kind == "kill" {
                    // SIGKILL is never Mihiraki's own: the out-of-memory killer sends it, and the line says so.
                    #expect(answer.error == "faulty: killed by SIGKILL while rendering spread 1 (out of memory?)", "\(answer.text)")
                } else if kind == "allocate" {
                    // The same page needs the same memory every time: a permanent failure naming the limit, never 503.
                    #expect(answer.error == "faulty: needs more memory than a render may use while rendering spread 1 "
                            + "(--worker-memory 512 MiB)", "\(answer.text)")
                    #expect(answer.headers["retry-after"] == nil)
                } else if status == 500 {
                    #expect(answer.error?.hasPrefix("faulty: internal error while rendering spread 1 (the worker was ended by SIG") == true,
                            "\(answer.text)")
                } else {
                    #expect(answer.error?.contains("--timeout") == true, "\(answer.text)")
                }
                // The next request, to another book and to the same book's other spread, is served.
                #expect(try httpGet(server, Self.good + "&background=%2300000\(round)").status == 200)
                #expect(try httpGet(server, "/api/books/faulty/spreads/2.png?size=x100").status == 200)
            }
            #expect(try httpGet(server, "/healthz").status == 200)
            #expect(server.stderr.isEmpty, "\(server.stderr.prefix(500))")
        }
    }

    /// A progressive JPEG of a few kB whose header claims 14000×14000 (the
    /// sample book's page 3 with its frame header changed): the decoder
    /// needs a coefficient buffer of the whole image before the first row,
    /// more than the worker may use. The same request always fails the same
    /// way, so it is 422 naming the limit, never 503 with Retry-After.
    @Test("A page that needs more memory than --worker-memory is 422 naming the limit, every time, and never asks for a retry")
    func pageOverTheMemoryLimit() async throws {
        try await onOwnThread {
            let library = try Self.library()
            defer { library.remove() }
            var jpeg = try Fixtures.bytes(Fixtures.sampleBook.appendingPathComponent("page3.jpg"))
            let sof = try #require((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC2 })
            for (k, byte) in [UInt8(0x36), 0xB0, 0x36, 0xB0].enumerated() { jpeg[sof + 5 + k] = byte }  // 14000 × 14000
            _ = try library.folder.write("root/bomb/p1.jpg", jpeg)
            let server = try RunningServer(root: library.root, ["--worker-memory", "256", "--quiet"])
            defer { server.stop() }
            for _ in 1...2 {
                let answer = try httpGet(server, "/api/books/bomb/spreads/1.png?size=x100")
                #expect(answer.status == 422, "\(answer.status) \(answer.text)")
                #expect(answer.error?.hasPrefix("bomb/p1.jpg: ") == true, "\(answer.text)")
                #expect(answer.error?.hasSuffix("more than a render may use (--worker-memory 256 MiB)") == true, "\(answer.text)")
                #expect(answer.headers["retry-after"] == nil)
            }
            #expect(try httpGet(server, Self.good).status == 200)
            #expect(server.stderr.isEmpty, "\(server.stderr.prefix(500))")
        }
    }

    /// Automatic pairing, --split-wide auto and --crop-borders decode pages to
    /// plan: with workers, that plan is made by a worker, so a page that
    /// crashes while it is measured costs the request, not the server.
    @Test("A page that crashes while a plan measures it (pairing=auto, crop-borders) costs its request, not the server")
    func faultWhilePlanning() async throws {
        try await onOwnThread {
            let library = try Self.library()
            defer { library.remove() }
            let server = try RunningServer(root: library.root, ["--workers", "2", "--timeout", "20", "--quiet"],
                                           environment: ["MIHIRAKI_TEST_FAULT": "crash:bad-page.png"])
            defer { server.stop() }
            for query in ["pairing=auto", "crop-borders=1", "crop-borders=1&crop-limit=4"] {
                let manifest = try httpGet(server, "/api/books/faulty/manifest?size=x100&" + query)
                #expect(manifest.status == 500, "\(query): \(manifest.status) \(manifest.text)")
                #expect(manifest.error?.hasPrefix("faulty: internal error while planning") == true, "\(manifest.text)")
                let spread = try httpGet(server, "/api/books/faulty/spreads/2.png?size=x100&" + query)
                #expect(spread.status == 500, "\(query): \(spread.status)")
                #expect(try httpGet(server, Self.good + "&" + query).status == 200)
                #expect(try httpGet(server, "/healthz").status == 200)
            }
            // The same book planned from its headers alone is served.
            #expect(try httpGet(server, "/api/books/faulty/spreads/2.png?size=x100").status == 200)
            #expect(server.stderr.isEmpty, "\(server.stderr.prefix(500))")
        }
    }

    @Test("A worker killed with SIGKILL is replaced; requests before and after are served")
    func killedWorker() async throws {
        try await onOwnThread {
            let library = try Self.library()
            defer { library.remove() }
            let server = try RunningServer(root: library.root, ["--workers", "2", "--quiet"])
            defer { server.stop() }
            #expect(try httpGet(server, Self.good).status == 200)
            let workers = Self.children(of: server.process.processIdentifier)
            #expect(!workers.isEmpty)
            for pid in workers { kill(pid, SIGKILL) }
            for n in 1...4 {
                let answer = try httpGet(server, "/api/books/Series%20A%2Fvol1/spreads/\(n).png?size=x90")
                #expect(answer.status == 200, "spread \(n): \(answer.status) \(answer.text)")
            }
            #expect(Self.children(of: server.process.processIdentifier).allSatisfy { !workers.contains($0) })
        }
    }

    /// A worker is started from one of the server's threads, where the
    /// runtime keeps signals blocked; it must not inherit that, or an
    /// operator's `kill`, or a service manager stopping the unit with SIGTERM,
    /// leaves it rendering until SIGKILL. (The server under test is itself
    /// started from such a thread, so it holds a blocked mask of its own.)
    @Test("A worker starts with no signal blocked, in a process group of its own: SIGTERM from an operator ends it, and the next request is served")
    func workerTakesSignals() async throws {
        try await onOwnThread {
            let library = try Self.library()
            defer { library.remove() }
            let server = try RunningServer(root: library.root, ["--workers", "1", "--quiet"])
            defer { server.stop() }
            #expect(try httpGet(server, Self.good).status == 200)
            let workers = Self.children(of: server.process.processIdentifier)
            try #require(workers.count == 1)
            let blocked = Self.status(of: workers[0], "SigBlk")
            #expect(blocked.flatMap { UInt64($0, radix: 16) } == 0, "blocked: \(blocked ?? "?")")
            // A terminal's Ctrl-C goes to the server's group; the server ends its workers itself.
            #expect(getpgid(workers[0]) == workers[0] && getpgid(server.process.processIdentifier) != workers[0])
            kill(workers[0], SIGTERM)
            var gone = false
            for _ in 0..<250 where !gone {
                // Ended: reaped, or a zombie until the server next takes a worker.
                gone = !isRunning(workers[0])
                if !gone { usleep(20_000) }
            }
            #expect(gone, "the worker outlived SIGTERM by 5 s")
            let answer = try httpGet(server, "/api/books/Series%20A%2Fvol1/spreads/1.png?size=x90")
            #expect(answer.status == 200, "\(answer.status) \(answer.text)")
        }
    }

    /// Under wrk load on a good book, faulty requests beside it cost no good
    /// request an error.
    @Test("wrk on a good book while crashing, hanging and memory-hungry requests come in: every good request is a 200")
    func loadWithFaults() async throws {
        try await onOwnThread {
            let library = try Self.library()
            defer { library.remove() }
            // Each fault comes from a page of its own: book "faulty" spread 1 crashes, spread 2 hangs, spread 3 eats memory.
            _ = try library.folder.write("root/faulty/p3.png", try Fixtures.solidPNG(width: 60, height: 90, [90]))
            _ = try library.folder.write("root/faulty/p4.png", try Fixtures.solidPNG(width: 60, height: 90, [90]))
            let server = try RunningServer(root: library.root, ["--workers", "2", "--timeout", "4", "--queue", "16", "--quiet"],
                                           environment: ["MIHIRAKI_TEST_FAULT": "crash:bad-page.png,hang:p2.png,allocate:p4.png"])
            defer { server.stop() }
            let script = try wrkScript(library, mode: "new", size: "x80")
            let wrk = Process()
            wrk.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
            wrk.arguments = ["-t1", "-c2", "-d14s", "--timeout", "10s", "-s", script, server.base + "/"]
            let out = Pipe()
            wrk.standardOutput = out
            try wrk.run()
            // [x|bad-page] [p2|p3] [p4|x]: a crash, a hang, memory without bound; then a worker killed from outside.
            var faulty: [Int] = []
            for round in 0..<2 {
                for spread in 1...3 {
                    faulty.append(try httpGet(server, "/api/books/faulty/spreads/\(spread).png?size=x100&background=%23ff000\(round)").status)
                }
            }
            for pid in Self.children(of: server.process.processIdentifier).prefix(1) { kill(pid, SIGKILL) }
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            _ = exitStatus(of: wrk)
            // Waiting behind the load counts towards --timeout, so a crashing page may be answered 504 too;
            // the page that needs memory without bound is 422, a permanent failure.
            #expect(faulty.allSatisfy { [500, 504, 422].contains($0) } && faulty[1] == 504 && faulty[4] == 504
                    && [faulty[2], faulty[5]].allSatisfy { $0 == 422 || $0 == 504 }, "\(faulty)")
            let statuses = text.split(separator: "\n").filter { $0.hasPrefix("status ") }
            #expect(statuses.count == 1 && statuses.first?.hasPrefix("status 200 ") == true, "\(text)")
            #expect(!text.contains("Socket errors"), "\(text)")
        }
    }

    /// A server killed outright (`kill -9`, the out-of-memory killer) leaves
    /// no worker behind: not an idle one, and not one in a render, here one
    /// that never ends (the test hook's hang sleeps forever).
    @Test("kill -9 of the server takes its workers with it, the one in a render that never ends too")
    func killedServerTakesItsWorkers() async throws {
        try await onOwnThread {
            let library = try Self.library()
            defer { library.remove() }
            let server = try RunningServer(root: library.root, ["--workers", "2", "--timeout", "120", "--quiet"],
                                           environment: ["MIHIRAKI_TEST_FAULT": "hang:bad-page.png"])
            // Workers start as requests need them: the first takes the hang, the second a good request after it.
            let hanging = try BackgroundGet(server.base + Self.faulty)
            let deadline = Date().addingTimeInterval(30)
            func asleep() -> [pid_t] {
                Self.children(of: server.process.processIdentifier).filter { Self.waitChannel(of: $0).contains("nanosleep") }
            }
            while asleep().isEmpty && Date() < deadline { usleep(10_000) }
            #expect(try httpGet(server, Self.good).status == 200)
            let workers = Self.children(of: server.process.processIdentifier)
            try #require(workers.count == 2 && asleep().count == 1, "workers \(workers): \(workers.map { Self.waitChannel(of: $0) })")
            kill(server.process.processIdentifier, SIGKILL)
            _ = exitStatus(of: server.process)
            let gone = Date().addingTimeInterval(5)
            while workers.contains(where: isRunning) && Date() < gone { usleep(10_000) }
            let left = workers.filter(isRunning)
            left.forEach { kill($0, SIGKILL) }
            #expect(left.isEmpty, "workers still running 5 s after the server was killed: \(left)")
            #expect(hanging.finish().status == 0)  // the connection died with the server
        }
    }

    /// Where in the kernel the process `pid` waits (`/proc/PID/wchan`), empty when it runs or is gone.
    static func waitChannel(of pid: pid_t) -> String {
        (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
    }

    /// One field of `/proc/PID/status` (`SigBlk`), or nil when the process is gone.
    static func status(of pid: pid_t, _ field: String) -> String? {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(field + ":") }?
            .dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces)
    }

    /// The processes whose parent is `pid`.
    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0) }
        }
    }
}
