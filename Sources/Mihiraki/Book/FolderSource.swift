import MihirakiCodecs

/// A book that is a folder on disk; sub-folders are walked.
struct FolderSource: BookSource {
    let root: String

    func listFiles() throws -> [String] {
        var files: [String] = []
        try walk(root, prefix: "", into: &files)
        return files
    }

    private func walk(_ folder: String, prefix: String, into files: inout [String]) throws {
        for name in try FileSystem.list(folder) {
            let path = folder + "/" + name
            switch FileSystem.kind(path) {
            case .directory: try walk(path, prefix: prefix + name + "/", into: &files)
            case .file: files.append(prefix + name)
            default: continue
            }
        }
    }

    func read(_ relativePath: String) throws -> [UInt8] { try FileSystem.read(displayPath(relativePath)) }

    func displayPath(_ relativePath: String) -> String { root + "/" + relativePath }

    func checksum(_ relativePath: String) throws -> (size: Int, crc: UInt32) {
        let bytes = try read(relativePath)
        return (bytes.count, crc32(bytes))
    }

    func readPrefix(_ relativePath: String, count: Int) throws -> [UInt8] {
        try FileSystem.readPrefix(displayPath(relativePath), count: count)
    }
}
