import Foundation
import MihirakiTestSupport
@testable import mihiraki

/// The built executable: the test bundle sits in the build products folder, beside it.
func mihirakiPath() throws -> String {
    var products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: products.appendingPathComponent("mihiraki").path),
          products.path != "/" {
        products.deleteLastPathComponent()
    }
    return products.appendingPathComponent("mihiraki").path
}

/// What `mihiraki plan ARGUMENTS` prints on stdout, made by the command in
/// this process (its own parsing, options and library calls), without
/// starting the program: for tests of what plan says, not of how the
/// program exits.
func planOutput(_ arguments: [String]) throws -> String { try PlanCommand.parse(LayoutFlags.withOptionalValues(arguments)).output().text }

/// Runs the built `mihiraki` executable, as a user would.
func mihiraki(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    try runTool(try mihirakiPath(), arguments, environment: environment)
}

/// Runs `mihiraki` under strace, tracing the system calls `calls` (strace's
/// `trace=` list) in every thread, and returns the trace's lines; `trace` is
/// where strace writes.
func mihirakiTraced(_ arguments: [String], calls: String, trace: String,
                    environment: [String: String] = [:]) throws -> (run: Run, lines: [Substring]) {
    let run = try runTool("/usr/bin/strace", ["-f", "-qq", "-e", "trace=\(calls)", "-o", trace, try mihirakiPath()] + arguments,
                          environment: environment)
    return (run, try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n"))
}

/// Runs `mihiraki` in a mount namespace where the library `soname` (under
/// /usr/lib/x86_64-linux-gnu) is an empty file, as on a machine without its
/// package.
func mihirakiWithout(_ soname: String, _ arguments: [String]) throws -> Run {
    let folder = "/usr/lib/x86_64-linux-gnu/"
    let library = try FileManager.default.destinationOfSymbolicLink(atPath: folder + soname)
    return try runTool("/usr/bin/unshare", ["-m", "/bin/sh", "-c", "mount --bind /dev/null \(folder)\(library) && exec \"$@\"",
                                            "sh", try mihirakiPath()] + arguments)
}

/// Runs `mihiraki` under strace and returns every path it opened (not the
/// ones that did not exist), in order; `trace` is where strace writes.
func mihirakiOpening(_ arguments: [String], trace: String) throws -> (run: Run, opened: [String]) {
    let (run, lines) = try mihirakiTraced(arguments, calls: "openat", trace: trace)
    let opened = lines.filter { !$0.contains("ENOENT") }
        .compactMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }
    return (run, opened)
}

/// Starts the built `mihiraki` without waiting for it.
func startMihiraki(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try mihirakiPath())
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}
