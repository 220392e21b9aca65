import ArgumentParser
import Foundation
import Mihiraki

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write the spreads of one or more books as PNG files.",
        discussion: """
        Each BOOK (a folder of page images) goes to OUTDIR/<book name>/spread-001.png, … \
        and OUTDIR/<book name>/manifest.json. A book that fails is reported and the others \
        are still written; the exit status is then 1.
        """)

    @Argument(help: "Book folders.")
    var books: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder that receives one sub-folder per book.", valueName: "OUTDIR"))
    var output: String

    @OptionGroup var layout: LayoutOptions

    @Option(help: "Parallel workers (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "PNG compression: fast, default or small.")
    var compression: PNGEncoder.Compression = .default

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        var options = try layout.renderOptions()
        options.jobs = jobs
        options.compression = compression
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        guard !books.isEmpty else { throw ValidationError("name at least one book") }
        try refuseOutputInsideBooks()

        let start = Date()
        var failed = 0, spreads = 0
        var usedNames: [String: String] = [:]
        for path in books {
            do {
                let book = try Book.load(folder: path)
                if let other = usedNames[book.name] {
                    throw MihirakiError(.usage, path: path, "has the same name as \(other); its spreads would overwrite those")
                }
                usedNames[book.name] = path
                let plan = try BookPlan(book: book, options: options)
                let outcome = try BookRenderer.render(plan, into: output)
                spreads += outcome.written.count
                for error in outcome.errors { printError(error.description) }
                if !outcome.succeeded { failed += 1 }
            } catch let error as MihirakiError {
                printError(error.description)
                failed += 1
            }
        }
        if !quiet {
            let seconds = Date().timeIntervalSince(start)
            let summary = "\(books.count) book\(books.count == 1 ? "" : "s"), \(spreads) spread\(spreads == 1 ? "" : "s") "
                + "written to \(output), \(failed) failed, \(String(format: "%.2f", seconds)) s"
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// Writing into a book would add spreads to its pages on the next run.
    func refuseOutputInsideBooks() throws {
        let out = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath().path
        for book in books {
            let root = URL(fileURLWithPath: book).standardizedFileURL.resolvingSymlinksInPath().path
            if out == root || out.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
                throw ValidationError("the output folder \(output) is inside the book \(book)")
            }
        }
    }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data(("mihiraki: " + line + "\n").utf8))
}
