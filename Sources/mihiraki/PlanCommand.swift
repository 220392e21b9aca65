import ArgumentParser
import Foundation
import MihirakiProcess
import Mihiraki
#if canImport(Glibc)
import Glibc
#endif

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

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    /// Set in the child that plans the book for its supervisor: to
    /// `childWithJobs`, or to `childAlone` to read one page at a time.
    static let childVariable = "MIHIRAKI_SUPERVISED_PLAN"
    static let childWithJobs = "1", childAlone = "alone"

    func run() throws {
        let options = try layout.layoutOptions()  // a bad option is a usage error (exit 2), before any book
        let environment = ProcessInfo.processInfo.environment
        if environment[Self.childVariable] != nil {
            guard SupervisedChild.endWithSupervisor() else { throw ExitCode(1) }
        } else if options.readsPixels {
            return try supervise()
        }
        var command = self
        if environment[Self.childVariable] == Self.childAlone { command.jobs = 1 }
        do {
            let (text, warnings) = try command.output()
            for warning in warnings { printError("warning: " + warning) }
            print(text, terminator: "")
        } catch let error as MihirakiError {
            printError(error.description)
            throw ExitCode(1)
        }
    }

    /// Plans the book in a child process when the plan reads pixels
    /// (`--pairing auto`, `--split-wide auto`, `--crop-borders`), as `render`
    /// renders in one: pages decoded through the same decoders, so a trap
    /// nobody foresaw ends the child, and this process names the book in one
    /// line (exit 1) instead of ending with a bare signal. A signal sent from
    /// outside (an interrupt, a closed pipe) ends this process the same way.
    /// The child costs about 20 ms (reading the edges of a 400-page book
    /// takes about 0.4 s); a plan from the pages' sizes alone, which takes
    /// about as long as starting a child, stays in one process.
    ///
    /// A child ended by SIGKILL (the out-of-memory killer) is run once more
    /// reading one page at a time, as `render` runs such a book again with
    /// one worker; the child prints the plan only once it is made, so the
    /// first leaves nothing half-printed.
    private func supervise() throws {
        for attempt in [Self.childWithJobs, Self.childAlone] {
            guard let ending = SupervisedChild.run(adding: [Self.childVariable: attempt], doing: "planning", event: { _ in }) else {
                throw ExitCode(2)
            }
            if let signal = ending.signal {
                guard ending.sentFromOutside else {
                    if signal == SIGKILL && attempt == Self.childWithJobs && jobs > 1 { continue }
                    printError(ChildEnding.line(book, while: "planning it", signal: signal))
                    throw ExitCode(1)
                }
                SupervisedChild.endBy(signal)
            }
            if ending.exitStatus != 0 { throw ExitCode(ending.exitStatus) }
            return
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
        let plan = try SpreadPlan(book: loaded, options: options, jobs: jobs)
        if explain { text += plan.explanation }
        text += json ? plan.manifest.json : plan.text
        return (text, loaded.warnings.map(\.description))
    }
}
