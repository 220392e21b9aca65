import ArgumentParser
import MihirakiProcess
import Foundation
import Mihiraki
#if canImport(Glibc)
import Glibc
#endif

struct MihirakiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mihiraki",
        abstract: "Turn the pages of a book into two-page spreads.",
        version: MihirakiRelease.version,
        subcommands: [RenderCommand.self, PlanCommand.self, CompareCommand.self, ServeCommand.self, SignCommand.self])
}

// A full disk or a file-size limit must be an error line, not a signal.
signal(SIGXFSZ, SIG_IGN)

// Process-wide settings, so the program makes them, never the library: keep
// page-sized buffers for reuse (they come and go for every spread), and drop
// the lines libjxl prints on stderr before it returns an error Mihiraki
// reports in one line of its own.
ProcessSetup.keepLargeBuffers()
// `mihiraki serve` starts this program again as its rendering workers (their
// standard error goes nowhere, so they need no filter on it).
WorkerConfinement.runIfWorker()
ProcessSetup.quietLibraryChatter()

/// Runs an async command (`serve`) through its async `run`.
func runAsync<Command: AsyncParsableCommand>(_ command: inout Command) async throws { try await command.run() }

// Exit status: 0 success, 1 a book failed (the command reports it and goes
// on), 2 usage or fatal error.
/// `mihiraki rendr BOOK -o x`: the word is not a command, so say that (the
/// parser would complain about `-o` instead), with the nearest command.
func unknownCommand(_ arguments: [String]) -> String? {
    let commands = MihirakiCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" } + ["help"]
    guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) else { return nil }
    let hint = NearestWord.nearest(to: first, among: commands).map { " (did you mean \($0)?)" } ?? ""
    return "unknown command '\(first)'\(hint); the commands are \(commands.dropLast().joined(separator: ", "))"
}

if let message = unknownCommand(Array(FileSystem.arguments.dropFirst())) {
    printError(message)
    Foundation.exit(2)
}

do {
    var command = try MihirakiCommand.parseAsRoot(LayoutFlags.withOptionalValues(Array(FileSystem.arguments.dropFirst())))
    if var serving = command as? any AsyncParsableCommand {
        try await runAsync(&serving)
    } else {
        try command.run()
    }
} catch let exit as ExitCode {
    Foundation.exit(exit.rawValue)
} catch let error as MihirakiError {
    printError(error.description)
    Foundation.exit(2)
} catch {
    let code = MihirakiCommand.exitCode(for: error)
    if code == .success {
        print(MihirakiCommand.fullMessage(for: error))
        Foundation.exit(0)
    }
    printError(MihirakiCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)")
    Foundation.exit(2)
}
