import ArgumentParser
import Foundation
import Mihiraki

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print which pages share each spread, without drawing anything.",
        discussion: "One line per spread, such as [x|1] or [4W]; --json prints the manifest document instead.")

    @Argument(help: "A book folder.")
    var book: String

    @OptionGroup var layout: LayoutOptions

    @Flag(help: "Print the manifest JSON (spreads, slots and rectangles).")
    var json = false

    func run() throws {
        let options = try layout.renderOptions()
        do {
            let plan = try BookPlan(book: try Book.load(folder: book), options: options)
            print(json ? plan.manifestJSON : plan.text, terminator: "")
        } catch let error as MihirakiError {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
