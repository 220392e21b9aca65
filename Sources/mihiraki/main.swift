import ArgumentParser
import CMihirakiProcess
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
        subcommands: [RenderCommand.self, PlanCommand.self, CompareCommand.self, ServeCommand.self])
}

// A full disk or a file-size limit must be an error line, not a signal.
signal(SIGXFSZ, SIG_IGN)

// Page-sized buffers come and go for every spread: keep them for reuse. A
// process-wide setting, so the program makes it, never the library.
mh_keep_large_buffers()

/// Runs an async command (`serve`) through its async `run`.
func runAsync<Command: AsyncParsableCommand>(_ command: inout Command) async throws { try await command.run() }

// Exit status: 0 success, 1 a book failed (the command reports it and goes
// on), 2 usage or fatal error.
do {
    var command = try MihirakiCommand.parseAsRoot()
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
