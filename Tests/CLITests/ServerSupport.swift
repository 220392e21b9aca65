import Foundation
import MihirakiTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A `mihiraki serve` process on a free loopback port, as a user starts it.
final class RunningServer {
    let process: Process
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }
    /// Where the server's standard error goes, so a failing test can show it.
    private let errors: TemporaryFolder
    /// What the server has written to standard error so far.
    var stderr: String { (try? String(contentsOfFile: errors.path + "/stderr", encoding: .utf8)) ?? "" }

    /// - Parameter openFiles: the soft limit on open descriptors the server
    ///   starts with (set by `prlimit`, which then runs it), as a login
    ///   session's 1,024; its hard limit stays the test's.
    init(root: String, _ arguments: [String] = [], environment: [String: String] = [:], openFiles: Int? = nil) throws {
        process = Process()
        let command = [try mihirakiPath(), "serve", root, "--port", "0"] + arguments
        process.executableURL = URL(fileURLWithPath: openFiles == nil ? command[0] : "/usr/bin/prlimit")
        process.arguments = openFiles.map { ["--nofile=\($0):"] + command } ?? Array(command.dropFirst())
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        process.standardOutput = out
        errors = try TemporaryFolder("mihiraki-serve")
        _ = FileManager.default.createFile(atPath: errors.path + "/stderr", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errors.path + "/stderr")
        try process.run()
        // The first line says where it listens: "mihiraki: serving ROOT at http://127.0.0.1:PORT/".
        var line = Data()
        while !line.contains(10) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #":(\d+)/"#, options: .regularExpression),
              let port = Int(text[range].dropFirst().dropLast()) else {
            process.terminate()
            throw MihirakiTestFailure("mihiraki serve did not start: \(text)")
        }
        self.port = port
    }

    /// SIGTERM, then the exit status (-1 if it did not end within two minutes).
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        return exitStatus(of: process) ?? -1
    }

    deinit {
        if process.isRunning { process.terminate() }
        errors.remove()
    }
}

/// A fresh ``ServedLibrary`` served by `mihiraki serve` with `arguments`,
/// both removed afterwards.
func withServer(_ arguments: [String] = [], _ body: (ServedLibrary, RunningServer) throws -> Void) throws {
    let library = try ServedLibrary()
    defer { library.remove() }
    let server = try RunningServer(root: library.root, arguments)
    defer { server.stop() }
    try body(library, server)
}

/// One answer as curl got it.
struct HTTPAnswer {
    var status: Int
    /// Header names lower-cased.
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The `error` of a JSON error body.
    var error: String? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
    }
}

/// GETs `target` (a path sent exactly as written, or a full URL) with curl.
func httpGet(_ server: RunningServer, _ target: String, headers: [String] = [], timeout: Int = 60) throws -> HTTPAnswer {
    let folder = try TemporaryFolder("mihiraki-http")
    defer { folder.remove() }
    let url = target.hasPrefix("http") ? target : server.base + target
    var arguments = ["-s", "--path-as-is", "-m", String(timeout), "-D", folder.path + "/headers", "-o", folder.path + "/body"]
    for header in headers { arguments += ["-H", header] }
    let run = try runTool("/usr/bin/curl", arguments + [url])
    guard run.status == 0 else { throw MihirakiTestFailure("curl \(target): exit \(run.status) \(run.stderr)") }
    let head = (try? String(contentsOfFile: folder.path + "/headers", encoding: .utf8)) ?? ""
    var status = 0
    var fields: [String: String] = [:]
    for line in head.split(separator: "\r\n") {
        if line.hasPrefix("HTTP/") {
            status = Int(line.split(separator: " ")[1]) ?? 0
        } else if let colon = line.firstIndex(of: ":") {
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
    let body = (try? Data(contentsOf: URL(fileURLWithPath: folder.path + "/body"))) ?? Data()
    return HTTPAnswer(status: status, headers: fields, body: body)
}

/// bench/wrk-count.lua, the benchmark's own wrk script, with its settings in
/// front, written into `library`'s folder; returns its path. `mode` "new"
/// makes every request a new render of `size` spreads of the sample book.
func wrkScript(_ library: ServedLibrary, mode: String, size: String,
               cached: String = "/api/books/Series%20A%2Fvol1/spreads/2.webp?size=x200") throws -> String {
    let settings = """
    mode = "\(mode)"; cached = "\(cached)"
    book = "Series%20A%2Fvol1"; spreads = 8; size = "\(size)"

    """
    let counting = try String(contentsOfFile: Fixtures.packageRoot.path + "/bench/wrk-count.lua", encoding: .utf8)
    let script = library.folder.path + "/\(mode)-\(size).lua"
    try (settings + counting).write(toFile: script, atomically: true, encoding: .utf8)
    return script
}

