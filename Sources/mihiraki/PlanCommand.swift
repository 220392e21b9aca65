import ArgumentParser
import Foundation
import Mihiraki

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print which pages share each spread, without drawing anything.",
        discussion: "One line per spread, such as [x|1] or [4W]; --json prints the manifest document instead.")

    @Argument(help: "A book: a folder of page images or a book file (\(HelpNames.bookExtensions)).")
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
        let options = try layout.layoutOptions()
        if let shard {
            let taken = !(try ShardFlag.books([book], shard: shard)).isEmpty
            print("# \(Book.outputName(forPath: book)): \(taken ? "in" : "not in") shard \(shard)")
            if !taken { return }
        }
        do {
            let loaded = try Book.load(book)
            for warning in loaded.warnings { printError("warning: " + warning.description) }
            let plan = try BookPlan(book: loaded, options: options, jobs: max(1, jobs))
            if explain { print(plan.explanation, terminator: "") }
            print(json ? plan.manifest.json : plan.text, terminator: "")
        } catch let error as MihirakiError {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
