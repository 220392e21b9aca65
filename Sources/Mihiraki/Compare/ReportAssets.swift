import Foundation
import MihirakiCodecs
import MihirakiRaster

extension FileComparison {
    /// Where a comparison's pictures are in its report folder, relative to it.
    struct Pictures: Equatable, Sendable {
        var expected: String?
        var actual: String?
        var diff: String?
    }
}

/// Puts one comparison's pictures into a report folder: `expected/KEY`,
/// `actual/KEY` and `diff/KEY.png`. Files are hard-linked when the file
/// system allows (a report over 200 matching spreads then costs no copies),
/// copied otherwise; an identical pair shows one file for both sides.
struct ReportAssets {
    let folder: String
    let key: String

    init(folder: String, key: String) {
        self.folder = folder
        // A relative path that stays inside the report folder.
        let parts = key.split(separator: "/").filter { !$0.isEmpty && $0 != "." && $0 != ".." }
        self.key = parts.isEmpty ? "image" : parts.joined(separator: "/")
    }

    func add(expectedFile: String?, actualFile: String?, actual: PixelBuffer?, diff: PixelBuffer? = nil,
             identical: Bool = false) throws -> FileComparison.Pictures {
        var pictures = FileComparison.Pictures()
        if let expectedFile {
            pictures.expected = try place(expectedFile, as: "expected/" + key)
        }
        if identical, pictures.expected != nil {
            pictures.actual = pictures.expected
        } else if let actualFile {
            pictures.actual = try place(actualFile, as: "actual/" + key)
        } else if let actual {
            pictures.actual = try write(actual.reducedForOutput(), as: "actual/" + pngName)
        }
        if let diff { pictures.diff = try write(diff, as: "diff/" + pngName) }
        return pictures
    }

    /// The key with a `.png` extension, for pictures Mihiraki encodes.
    private var pngName: String {
        key.lowercased().hasSuffix(".png") ? key : key + ".png"
    }

    private func place(_ source: String, as name: String) throws -> String {
        let target = folder + "/" + name
        try FileSystem.makeDirectories(FileSystem.parent(of: target))
        unlink(target)
        if link(source, target) != 0 {
            try FileSystem.writeAtomically(try FileSystem.read(source), to: target)
        }
        return name
    }

    private func write(_ image: PixelBuffer, as name: String) throws -> String {
        try ImageComparator.writePNG(image, to: folder + "/" + name)
        return name
    }
}
