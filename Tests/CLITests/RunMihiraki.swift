import Foundation

/// Runs the built `mihiraki` executable, as a user would.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The built executable: the test bundle sits in the build products folder, beside it.
func mihirakiPath() throws -> String {
    var products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: products.appendingPathComponent("mihiraki").path),
          products.path != "/" {
        products.deleteLastPathComponent()
    }
    return products.appendingPathComponent("mihiraki").path
}

func mihiraki(_ arguments: [String]) throws -> Run {
    try run(try mihirakiPath(), arguments)
}

/// Runs a program to completion, capturing its output and status.
func run(_ executable: String, _ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
               stderr: String(decoding: stderr, as: UTF8.self))
}

/// `run`, under a name that a test's own `run` variable cannot shadow.
func runProgram(_ executable: String, _ arguments: [String]) throws -> Run {
    try run(executable, arguments)
}
