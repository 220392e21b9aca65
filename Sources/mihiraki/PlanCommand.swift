import ArgumentParser
import Foundation
import Mihiraki

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print which pages share each spread, without drawing anything.",
        discussion: "One line per spread, such as [x|1] or [4W]; --json prints the manifest document instead.")

    @Argument(help: "A book: a folder of page images or a .cbz/.zip archive.")
    var book: String

    @OptionGroup var layout: LayoutFlags

    @Flag(help: "Print the manifest JSON (spreads, slots and rectangles).")
    var json = false

    @Flag(help: "First print where each decision came from (flag, ComicInfo.xml, page size or default) as # lines.")
    var explain = false

    func run() throws {
        let options = try layout.layoutOptions()
        do {
            let loaded = try Book.load(book)
            for warning in loaded.warnings { printError("warning: " + warning.description) }
            let plan = try BookPlan(book: loaded, options: options)
            if explain { print(plan.explanation, terminator: "") }
            print(json ? plan.manifest.json : plan.text, terminator: "")
        } catch let error as MihirakiError {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
