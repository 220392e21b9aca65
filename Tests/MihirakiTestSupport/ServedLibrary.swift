import Foundation

/// A library to serve: a folder book two levels down, a right-to-left CBZ,
/// a book with a damaged page, a book with a page linked from outside ROOT,
/// and a link to a book outside ROOT.
public struct ServedLibrary: Sendable {
    public let folder: TemporaryFolder
    public var root: String { folder.path + "/root" }
    public var outside: String { folder.path + "/outside" }

    public init() throws {
        folder = try TemporaryFolder("mihiraki-served")
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/Series A", withIntermediateDirectories: true)
        try files.copyItem(atPath: Fixtures.sampleBook.path, toPath: root + "/Series A/vol1")
        let pages = try (1...5).map { i in
            ("p\(i).png", try Fixtures.solidPNG(width: 60, height: 90, [UInt8(40 * i), 80, 200]))
        }
        _ = try folder.writeArchive("root/manga.cbz", [("ComicInfo.xml", comicInfoXML(manga: "YesAndRightToLeft"))] + pages)
        var damaged = try Fixtures.solidPNG(width: 60, height: 90, [9])
        damaged.removeLast(20)
        _ = try folder.write("root/broken/p1.png", try Fixtures.solidPNG(width: 60, height: 90, [1]))
        _ = try folder.write("root/broken/p2.png", damaged)
        _ = try folder.write("outside/secret/p1.png", try Fixtures.solidPNG(width: 60, height: 90, [250]))
        _ = try folder.write("root/leaky/p1.png", try Fixtures.solidPNG(width: 60, height: 90, [20]))
        try files.createSymbolicLink(atPath: root + "/leaky/p2.png", withDestinationPath: outside + "/secret/p1.png")
        try files.createSymbolicLink(atPath: root + "/escape", withDestinationPath: outside + "/secret")
    }

    public func remove() { folder.remove() }
}
