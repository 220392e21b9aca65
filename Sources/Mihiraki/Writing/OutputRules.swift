import Foundation

/// The rules about where books may be written, enforced by the library so
/// every caller (the command line, a server, a program) gets them.
extension BookRenderer {
    /// Refuses an output folder that is one of the books or inside one
    /// (the next run would take the spreads for pages), then creates it.
    ///
    /// - Parameters:
    ///   - outputRoot: the folder that receives one sub-folder per book.
    ///   - books: the books' paths as given.
    /// - Throws: ``MihirakiError``: `.usage` for an output inside a book,
    ///   `.io` naming the folder that cannot be created.
    package static func prepareOutput(_ outputRoot: String, books: [String]) throws {
        try checkOutput(outputRoot, books: books)
        try FileSystem.makeDirectories(outputRoot)
    }

    /// The checks of ``prepareOutput(_:books:)``, creating nothing: callers
    /// make them before reading any book, so a bad `-o` costs one line and
    /// leaves no folder behind. Refused: an output that is, through any
    /// link, one of the books, inside one or holding one; a path that is (or runs through)
    /// a file, a link to nothing or a loop of links.
    /// - Throws: ``MihirakiError`` with code `.usage`.
    package static func checkOutput(_ outputRoot: String, books: [String]) throws {
        let out = try resolvedOutput(outputRoot)
        for book in books {
            guard let real = FileSystem.realPath(book) else { continue }  // a missing book fails on its own
            if FileSystem.isWithin(out, real) {
                throw MihirakiError(.usage, "the output folder \(outputRoot) is inside the book \(book)")
            }
            // An output folder holding a book would put spreads beside its pages.
            if FileSystem.isWithin(real, out) {
                throw MihirakiError(.usage, "the output folder \(outputRoot) holds the book \(book)")
            }
        }
    }

    /// Where `path` would be once created: the real path of its nearest
    /// existing ancestor, links resolved, with the missing components after it.
    private static func resolvedOutput(_ path: String) throws -> String {
        var existing = path.isEmpty ? "." : path
        var missing: [Substring] = []
        while true {
            var info = stat()
            if lstat(existing, &info) == 0 {
                if (info.st_mode & S_IFMT) == S_IFLNK && stat(existing, &info) != 0 {
                    let what = errno == ELOOP ? "is a loop of symbolic links" : "is a symbolic link to nothing"
                    throw MihirakiError(.usage, "the output folder \(path) cannot be created: \(existing) \(what)")
                }
                guard (info.st_mode & S_IFMT) == S_IFDIR else {
                    throw MihirakiError(.usage, "the output folder \(path) cannot be created: \(existing) is \(FileSystem.name(of: info.st_mode))")
                }
                guard let real = FileSystem.realPath(existing) else {
                    throw MihirakiError(.usage, "the output folder \(path) cannot be resolved: \(FileSystem.errnoText())")
                }
                return ([real] + missing.reversed().map(String.init)).joined(separator: "/")
            }
            // Nothing exists up to the root or the working folder: nothing to resolve.
            if existing == "." || existing == "/" { return path }
            let parent = FileSystem.parent(of: existing)
            missing.append(Substring(FileSystem.lastComponent(of: existing)))
            existing = parent.isEmpty ? "." : parent
        }
    }

    /// Two books with the same output folder name (`a/vol1` and `b/vol1`, or
    /// `vol1/` and `vol1.cbz`) would overwrite each other: the first keeps the
    /// name, every later one is refused.
    ///
    /// - Returns: the plans that keep their names, in order, and one error per refused book.
    package static func refusingDuplicateNames(_ plans: [SpreadPlan]) -> (kept: [SpreadPlan], refused: [MihirakiError]) {
        let errors = duplicateNameErrors(plans)
        return (plans.indices.filter { errors[$0] == nil }.map { plans[$0] }, errors.keys.sorted().map { errors[$0]! })
    }

    /// The refusal of every plan whose output name an earlier plan has, by index.
    static func duplicateNameErrors(_ plans: [SpreadPlan]) -> [Int: MihirakiError] {
        var owners: [String: String] = [:]
        var errors: [Int: MihirakiError] = [:]
        for (index, plan) in plans.enumerated() {
            if let other = owners[plan.book.outputName] {
                errors[index] = MihirakiError(.usage, path: plan.book.path,
                                              "has the same output folder name as \(other); refused")
            } else {
                owners[plan.book.outputName] = plan.book.path
            }
        }
        return errors
    }

    /// Whether `outputRoot/<book>/` already holds what rendering `book` with
    /// these options would write (``RunOptions/incremental``): decided from
    /// the book's bytes and the manifest before any page header is read, so
    /// a caller can skip planning an up-to-date book.
    /// - Returns: `false` when anything cannot be read: the book is then rendered.
    package static func isUpToDate(_ book: Book, options: LayoutOptions, run: RunOptions, in outputRoot: String) -> Bool {
        BookWriter.isUpToDate(folder: outputRoot + "/" + book.outputName,
                              fingerprint: try? Fingerprint.of(book, options: options, run: run),
                              alsoWritten: BookWriter.alsoWritten(options, run: run))
    }

}
