import MihirakiCodecs

/// The links an archive holds in place of files: a tar's hard links (a
/// duplicate page stored once) and symbolic links in tar, RAR, 7z and ZIP. A
/// link is listed under its own name, so a page stored as a link is a page
/// like any other, and reads as the entry it names. The name is resolved
/// inside the archive only, never as a path on disk: a link out of the
/// archive (`/etc/passwd`, `../x`), to a name the archive has no file for, or
/// round a loop of links fails the book naming the link.
struct ArchiveLinks: Sendable {
    /// Each link by its name: the entry name it points at, or why it points at none.
    private var targets: [String: Result<String, Unreadable>] = [:]

    enum Unreadable: Error, Equatable { case outside(String) }

    var names: [String] { Array(targets.keys) }

    func contains(_ name: String) -> Bool { targets[name] != nil }

    /// Records the link `name` (already an ``entryPath(_:)``); the first of two same names wins.
    mutating func add(_ name: String, _ link: ArchiveReader.Link) {
        guard targets[name] == nil else { return }
        switch link {
        case .hard(let target): targets[name] = .success(entryPath(target))
        case .symbolic(let target): targets[name] = Self.resolve(target, from: name)
        }
    }

    /// A symbolic link's target as an entry name: relative to the link's
    /// folder, `.` and `..` applied, never above the archive's top.
    private static func resolve(_ target: String, from name: String) -> Result<String, Unreadable> {
        guard !target.hasPrefix("/") else { return .failure(.outside(target)) }
        var parts = name.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { return .failure(.outside(target)) }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return .success(parts.joined(separator: "/"))
    }

    /// The file entry `name` stands for: itself when it is not a link, else
    /// the end of its chain of links.
    /// - Parameters:
    ///   - isFile: whether the archive holds a file entry of that name.
    ///   - place: names a link in errors (the archive's path and the entry).
    /// - Throws: ``MihirakiError`` (`.badPage`) naming the link and what it points at.
    func file(for name: String, isFile: (String) -> Bool, place: (String) -> String) throws -> String {
        var current = name, seen: Set<String> = []
        while let target = targets[current], !isFile(current) {
            guard seen.insert(current).inserted else {
                throw MihirakiError(.badPage, path: place(name), "a link that leads round a loop of links")
            }
            switch target {
            case .failure(.outside(let path)):
                throw MihirakiError(.badPage, path: place(name), "a link to \(path), outside the archive")
            case .success(let next):
                guard isFile(next) || targets[next] != nil else {
                    throw MihirakiError(.badPage, path: place(name), "a link to \(next), which the archive does not hold")
                }
                current = next
            }
        }
        return current
    }
}
