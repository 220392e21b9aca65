import MihirakiCodecs

/// A book that is a folder on disk; sub-folders are walked.
struct FolderSource: BookSource {
    let root: String
    /// When set (the server's ROOT, resolved), a file or folder whose real
    /// path is outside it — a symbolic link out of the served tree — is
    /// skipped when listing and refused when read.
    var confinement: String? = nil

    func listFiles() throws -> [String] {
        var files: [String] = []
        try walk(root, prefix: "", into: &files)
        return files
    }

    private func walk(_ folder: String, prefix: String, into files: inout [String]) throws {
        // A name Mihiraki cannot hold would be a page lost without a word: the book fails, naming it.
        let names = try FileSystem.list(folder) { name in
            if name.hasPrefix(".") { return }  // dot-files are skipped whatever their names
            throw MihirakiError(.badBook, path: displayPath(prefix + name),
                                "the file name is not valid UTF-8; rename the file to read this book")
        }
        for name in names {
            let path = folder + "/" + name
            if let confinement, !FileSystem.isInside(path, confinement) { continue }
            switch FileSystem.kind(path) {
            case .directory: try walk(path, prefix: prefix + name + "/", into: &files)
            case .file: files.append(prefix + name)
            default: continue
            }
        }
    }

    func read(_ relativePath: String) throws -> [UInt8] { try FileSystem.read(try confined(relativePath)) }

    /// The file's path, after checking that it stays inside the confinement.
    private func confined(_ relativePath: String) throws -> String {
        let path = displayPath(relativePath)
        if let confinement, !FileSystem.isInside(path, confinement) {
            throw MihirakiError(.io, path: path, "leaves the served folder (a symbolic link outside it)")
        }
        return path
    }

    func displayPath(_ relativePath: String) -> String { root + "/" + relativePath }

    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) {
        let bytes = try read(relativePath)
        return (bytes.count, crc32(bytes))
    }

    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        try FileSystem.readPrefix(try confined(relativePath), count: count)
    }
}
