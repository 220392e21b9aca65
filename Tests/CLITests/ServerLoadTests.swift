import Foundation
import Synchronization
import MihirakiCodecs
import MihirakiRaster
import MihirakiTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds a process has used (user + system, from /proc).
func cpuSeconds(_ pid: Int32) -> Double {
    guard let fields = statFields(of: pid), fields.count > 12,
          let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// CPU seconds the server and its rendering workers have used.
func serverCPUSeconds(_ server: RunningServer) -> Double {
    let pid = server.process.processIdentifier
    return cpuSeconds(pid) + WorkerCLITests.children(of: pid).reduce(0) { $0 + cpuSeconds($1) }
}

/// Polls until the server (its workers included) has spent `seconds` more
/// CPU than when called: a render it was asked for is under way.
func waitUntilBusy(_ server: RunningServer, seconds: Double = 0.1) {
    let start = serverCPUSeconds(server)
    let deadline = Date().addingTimeInterval(30)
    while serverCPUSeconds(server) - start < seconds && Date() < deadline { usleep(2000) }
}

/// Whether a TCP connection to the loopback `port` is accepted now.
func canConnect(port: Int) -> Bool {
    guard let fd = connectLoopback(port: port) else { return false }
    close(fd)
    return true
}

/// The server's side of the established TCP connections to the loopback `port` (from /proc/net/tcp).
func establishedConnections(port: Int) -> Int {
    guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return 0 }
    let hex = String(port, radix: 16, uppercase: true)
    let local = ":" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    return table.split(separator: "\n").dropFirst().filter { line in
        let fields = line.split(separator: " ")
        return fields.count > 3 && fields[1].hasSuffix(local) && fields[3] == "01"
    }.count
}

/// A socket connected to the loopback `port`, or nil when refused.
func connectLoopback(port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    if !connected { close(fd) }
    return connected ? fd : nil
}

/// curl started in the background: the answer's status and body land in files.
struct BackgroundGet {
    let process = Process()
    let folder: TemporaryFolder

    init(_ url: String) throws {
        folder = try TemporaryFolder("mihiraki-get")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-m", "120", "-D", folder.path + "/headers", "-o", folder.path + "/body", url]
        try process.run()
    }

    /// The response headers received so far (empty until the answer begins).
    var headersSoFar: String { (try? String(contentsOfFile: folder.path + "/headers", encoding: .utf8)) ?? "" }

    /// Waits, then the status and body.
    func finish() -> (status: Int, headers: String, body: Data) {
        _ = exitStatus(of: process, within: 150)
        defer { folder.remove() }
        let headers = (try? String(contentsOfFile: folder.path + "/headers", encoding: .utf8)) ?? ""
        let status = headers.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let body = (try? Data(contentsOf: URL(fileURLWithPath: folder.path + "/body"))) ?? Data()
        return (status, headers, body)
    }
}

@Suite("mihiraki serve: load, backpressure, slow clients, shutdown", .serialized, .tags(.process, .load), .timeLimit(.minutes(10)))
struct ServerLoadTests {
    /// A spread big enough to take a while to render, even in a release build
    /// (beyond the default --max-size: the servers that ask for it allow it).
    static let slowSpread = "/api/books/Series%20A%2Fvol1/spreads/3.png?size=6000x4500"

    @Test("SIGTERM with a render in flight: the request gets its whole spread, then the server exits 0")
    func gracefulShutdown() throws {
        let library = try ServedLibrary()
        defer { library.remove() }
        let server = try RunningServer(root: library.root, ["--max-size", "6000x4500"])
        let get = try BackgroundGet(server.base + Self.slowSpread)
        waitUntilBusy(server)  // the render is under way
        kill(server.process.processIdentifier, SIGTERM)
        let answer = get.finish()
        let status = exitStatus(of: server.process)
        #expect(answer.status == 200, "\(answer.headers)")
        #expect(answer.body.count > 1000 && answer.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(status == 0)
    }

    @Test("SIGTERM with six large spreads in flight: the listener closes first, every begun response is sent whole, exit 0")
    func shutdownSendsEverythingBegun() throws {
        let library = try TemporaryFolder()
        defer { library.remove() }
        for p in 1...4 { try library.write("root/noise/p\(p).png", try noisePage(seed: UInt64(p))) }
        let server = try RunningServer(root: library.path + "/root", ["--jobs", "2", "--queue", "20"])
        let gets = try (0..<6).map { i in
            try BackgroundGet(server.base + "/api/books/noise/spreads/2.png?size=x300\(i)&compression=fast")
        }
        // Once all six are connected and the first answer has begun, the
        // others are rendering or being sent. (On a loaded machine a curl
        // may connect late; one not yet connected would rightly be refused.
        // One whose answer came whole before the last connected has closed
        // its connection: its curl has finished.)
        let deadline = Date().addingTimeInterval(60)
        while establishedConnections(port: server.port) + gets.filter({ !$0.process.isRunning }).count < 6
            && Date() < deadline { usleep(2000) }
        while gets.allSatisfy({ $0.headersSoFar.isEmpty }) && Date() < deadline { usleep(2000) }
        kill(server.process.processIdentifier, SIGTERM)
        let signalled = Date()
        var refusedAfter: Double?
        while refusedAfter == nil && Date().timeIntervalSince(signalled) < 10 {
            if !canConnect(port: server.port) { refusedAfter = Date().timeIntervalSince(signalled) } else { usleep(5000) }
        }
        let answers = gets.map { $0.finish() }
        let status = exitStatus(of: server.process)
        #expect(refusedAfter.map { $0 < 3 } == true, "new connections refused \(refusedAfter ?? -1) s after SIGTERM")
        for (i, answer) in answers.enumerated() {
            let length = answer.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            #expect(answer.status == 200 && length == answer.body.count && answer.body.count > 10_000_000,
                    "response \(i): \(answer.status), \(answer.body.count) of \(length ?? -1) bytes")
        }
        #expect(status == 0, "server's stderr: \(server.stderr)")
    }

    @Test("SIGTERM amid a burst of new connections: none is dropped half set up (SwiftNIO stopped the process), exit 0, nothing on stderr")
    func shutdownDuringConnectionBurst() throws {
        let library = try ServedLibrary()
        defer { library.remove() }
        for round in 0..<6 {
            // --quiet: no access log, so anything on stderr is a failure.
            let server = try RunningServer(root: library.root, ["--quiet"])
            let port = server.port
            let opened = Mutex<[Int32]>([])
            let burstDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for _ in 0..<400 {
                    guard let fd = connectLoopback(port: port) else { break }
                    opened.withLock { $0.append(fd) }
                }
                burstDone.signal()
            }
            usleep(UInt32(10_000 + 2_000 * round))  // the signal lands at a different point of the burst each round
            kill(server.process.processIdentifier, SIGTERM)
            burstDone.wait()
            opened.withLock { $0.forEach { close($0) } }
            let status = exitStatus(of: server.process)
            #expect(status == 0 && server.stderr.isEmpty, "round \(round): exit \(status ?? -1), \(server.stderr)")
        }
    }

    @Test("One worker, no queue: identical requests share one render; a different one meanwhile gets 503 with Retry-After")
    func sharingAndBackpressure() throws {
        try withServer(["--jobs", "1", "--queue", "0", "--max-size", "6000x4500"]) { library, server in
            #expect(try httpGet(server, "/api/books/Series%20A%2Fvol1/manifest").status == 200)  // the book opened
            let same = try (0..<6).map { _ in try BackgroundGet(server.base + Self.slowSpread) }
            waitUntilBusy(server)  // their one render is under way
            let other = try httpGet(server, "/api/books/Series%20A%2Fvol1/spreads/4.png?size=6000x4500")
            let answers = same.map { $0.finish() }
            #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status))")
            #expect(Set(answers.map(\.body)).count == 1)
            #expect(other.status == 503 && other.headers["retry-after"] == "1", "\(other.status) \(other.headers)")
            #expect(other.error?.contains("try again") == true)
            #expect(try httpGet(server, "/api/books/Series%20A%2Fvol1/spreads/4.png?size=x200").status == 200)
        }
    }

    @Test("A client that sends half a request is cut off after --idle-timeout; others are served meanwhile")
    func slowClient() throws {
        try withServer(["--idle-timeout", "1"]) { library, server in
            let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: x\\r\\n")
            print("sent", flush=True)
            start = time.time()
            s.settimeout(10)
            data = s.recv(1000)
            print("closed" if data == b"" else "answered", round(time.time() - start, 1))
            """
            let slow = Process()
            slow.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            slow.arguments = ["python3", "-c", script, String(server.port)]
            let out = Pipe()
            slow.standardOutput = out
            try slow.run()
            // Its half request is on the wire once it says so.
            var said = ""
            while !said.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
            }
            #expect(said.hasPrefix("sent"))
            #expect(try httpGet(server, "/healthz").status == 200)
            _ = exitStatus(of: slow, within: 30)
            said = String(said.drop(while: { $0 != "\n" }).dropFirst())
                + String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let seconds = Double(said.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 99
            #expect(said.hasPrefix("closed") && seconds < 5, "\(said)")
        }
    }

    /// A login session starts programs with 1,024 descriptors (a soft limit
    /// under a hard one of half a million): that many connections held open,
    /// each sending a byte before the idle timeout, left the server accepting
    /// nothing more. It raises its soft limit to the hard one.
    @Test("serve started with 256 descriptors raises its limit: 400 half-sent requests held open, /healthz still answers")
    func manyConnections() throws {
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_max >= 2048, "a hard limit of \(limit.rlim_max)")
        let library = try ServedLibrary()
        defer { library.remove() }
        let server = try RunningServer(root: library.root, ["--quiet"], openFiles: 256)
        defer { server.stop() }
        let limits = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/limits", encoding: .utf8)
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
        let values = line.split(separator: " ").compactMap { Int($0) }
        #expect(values == [Int(limit.rlim_max), Int(limit.rlim_max)], "\(line)")
        let script = """
            import socket, sys, time
            held = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(400)]
            for s in held:
                s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: x\\r\\n")
            print("held", len(held), flush=True)
            sys.stdin.read()
            """
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", script, String(server.port)]
        let out = Pipe(), input = Pipe()
        holder.standardOutput = out
        holder.standardInput = input
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            _ = exitStatus(of: holder, within: 10)
        }
        var said = ""
        while !said.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        try #require(said == "held 400\n", "\(said)")
        #expect(try httpGet(server, "/healthz", timeout: 10).status == 200)
        #expect(try httpGet(server, "/api/books/Series%20A%2Fvol1/spreads/2.png?size=x100", timeout: 20).status == 200)
    }

    @Test("wrk: a cached spread under 16 connections, then overload with new renders: only 200s and 503s with Retry-After")
    func wrkLoad() throws {
        try withServer(["--jobs", "1", "--queue", "2"]) { library, server in
            /// bench/wrk-count.lua, the benchmark's own script, with this test's settings in front.
            func load(_ mode: String, connections: Int) throws -> (statuses: [String: Int], output: String) {
                let script = try wrkScript(library, mode: mode, size: "x120")
                let run = try runTool("/usr/bin/wrk", ["-t2", "-c\(connections)", "-d2s", "--timeout", "10s", "-s", script,
                                                      server.base + "/"])
                var statuses: [String: Int] = [:]
                for line in run.stdout.split(separator: "\n") where line.hasPrefix("status ") {
                    let parts = line.split(separator: " ")
                    statuses[String(parts[1])] = Int(parts[2])
                }
                return (statuses, run.stdout)
            }
            let cached = try load("cached", connections: 16)
            #expect(cached.statuses.keys.sorted() == ["200"] && (cached.statuses["200"] ?? 0) > 100, "\(cached.output)")
            #expect(!cached.output.contains("Socket errors"), "\(cached.output)")
            let overload = try load("new", connections: 32)
            #expect(Set(overload.statuses.keys).isSubset(of: ["200", "503"]), "\(overload.output)")
            #expect((overload.statuses["200"] ?? 0) > 0 && (overload.statuses["503"] ?? 0) > 0, "\(overload.output)")
            #expect(!overload.output.contains("Socket errors"), "\(overload.output)")
            #expect(try httpGet(server, "/healthz").status == 200)
        }
    }
}
