/// Loading and planning books from their paths, the rules `render` follows,
/// in the library so every caller gets them.
extension BookRenderer {
    /// Books loaded and planned, and what happened to the others.
    public struct PlannedBooks: Sendable {
        /// Something to tell the user about one book, in the order the books were given.
        public enum Note: Sendable {
            /// The book goes on (a malformed `ComicInfo.xml`, ignored).
            case warning(MihirakiError)
            /// The book cannot be read or planned; the others go on.
            case failure(MihirakiError)
        }

        /// The books to render, in the order given.
        public var plans: [SpreadPlan] = []
        /// For each plan, the index of its path among the paths given.
        package var pathIndices: [Int] = []
        /// Warnings and failures, in the order of the books.
        public var notes: [Note] = []
        /// Books already up to date (``RunOptions/incremental``): neither planned nor rendered.
        public var upToDate = 0
        /// Pages the books' measuring decoded, kept for the render, within one budget for the run.
        package let cache = PageCache()
        /// How many books failed.
        public var failed: Int { notes.filter { if case .failure = $0 { true } else { false } }.count }
    }

    /// Loads and plans the books at `paths`. A book that fails is noted and
    /// the others go on. With ``RunOptions/incremental`` and an
    /// `outputRoot`, a book whose output there is up to date is counted and
    /// not planned: decided from its bytes and manifest, before any page
    /// header is read.
    public static func plan(_ paths: [String], options: LayoutOptions, run: RunOptions = RunOptions(),
                            skippingUpToDateIn outputRoot: String? = nil) -> PlannedBooks {
        var result = PlannedBooks()
        for (index, path) in paths.enumerated() {
            do {
                let book = try Book.load(path)
                result.notes += book.warnings.map(PlannedBooks.Note.warning)
                if run.incremental, let outputRoot, isUpToDate(book, options: options, run: run, in: outputRoot) {
                    result.upToDate += 1
                    continue
                }
                let plan = try SpreadPlan.measuring(book: book, options: options, jobs: run.jobs, keepingIn: result.cache)
                result.plans.append(plan)
                result.pathIndices.append(index)
            } catch {
                result.notes.append(.failure(MihirakiError.from(error, path: path)))
            }
        }
        return result
    }
}
