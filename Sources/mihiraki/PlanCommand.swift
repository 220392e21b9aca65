import ArgumentParser
import Foundation
import Mihiraki

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print which pages share each spread, without drawing anything.",
        discussion: "One line per spread, such as [x|1] or [4W]; --json prints the manifest document instead.")

    @Argument(help: "A book: a folder of page images or a book file (\(BookKind.extensionList)).")
    var book: String

    @OptionGroup var layout: LayoutFlags

    @Flag(help: "Print the manifest JSON (spreads, slots and rectangles).")
    var json = false

    @Flag(help: "First print where each decision came from (flag, ComicInfo.xml, page size or default) as # lines.")
    var explain = false

    @Option(help: "Pages read at once with --pairing auto, the only time plan reads pixels (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("First say whether `render --shard K/N` takes this book (a # line); print no spreads if not.", valueName: "K/N"))
    var shard: String?

    func run() throws {
        _ = try layout.layoutOptions()  // a bad option is a usage error (exit 2), before any book
        do {
            let (text, warnings) = try output()
            for warning in warnings { printError("warning: " + warning) }
            print(text, terminator: "")
        } catch let error as MihirakiError {
            printError(error.description)
            throw ExitCode(1)
        }
    }

    /// What `plan` prints on stdout, and the warnings it prints on stderr:
    /// the command's whole behaviour, which tests reach in the process.
    /// - Throws: ``MihirakiError``: `.usage` for bad options, another code
    ///   for a book that cannot be planned (exit 1).
    func output() throws -> (text: String, warnings: [String]) {
        let options = try layout.layoutOptions()
        var text = ""
        if let shard {
            let taken = !(try ShardFlag.books([book], shard: shard)).isEmpty
            text += "# \(Book.outputName(forPath: book)): \(taken ? "in" : "not in") shard \(shard)\n"
            if !taken { return (text, []) }
        }
        let loaded = try Book.load(book)
        let plan = try BookPlan(book: loaded, options: options, jobs: max(1, jobs))
        if explain { text += plan.explanation }
        text += json ? plan.manifest.json : plan.text
        return (text, loaded.warnings.map(\.description))
    }
}
