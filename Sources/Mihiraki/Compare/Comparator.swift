import Foundation
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// `mihiraki compare`: pixelmatch-style comparison of PNG files or folders.
public enum Comparator {
    /// What counts as a difference, and where diff pictures go.
    public struct Options: Sendable {
        /// Colour distance threshold, 0…1, on pixelmatch's YIQ scale (default 0.1).
        public var threshold = 0.1
        /// Count anti-aliased pixels as differences too.
        public var includeAntialiased = false
        /// Allow up to this many differing pixels per image.
        public var maxDiffPixels = 0
        /// Allow up to this fraction of differing pixels per image.
        public var maxDiffRatio = 0.0
        /// Where to write diff pictures: a file (file mode) or a folder (folder mode).
        public var diffPath: String?

        /// Exact comparison with pixelmatch's defaults, no diff pictures.
        public init() {}

        var pixel: PixelMatch.Options { PixelMatch.Options(threshold: threshold, includeAntialiased: includeAntialiased) }
    }

    /// Compares two images already in memory.
    /// - Parameters:
    ///   - expected: the reference image.
    ///   - actual: the image under test.
    ///   - name: how the result names the pair.
    ///   - options: what counts as a difference.
    ///   - diffPath: where to write a diff picture when they differ.
    /// - Returns: the comparison; `.error` only when the diff picture cannot be written.
    public static func compare(expected: PixelBuffer, actual: PixelBuffer, name: String, options: Options,
                               diffPath: String? = nil) -> FileComparison {
        var result = FileComparison(name: name, status: .ok, totalPixels: expected.width * expected.height)
        guard expected.width == actual.width, expected.height == actual.height else {
            result.status = .diff
            result.detail = "size \(actual.width)×\(actual.height), expected \(expected.width)×\(expected.height)"
            return result
        }
        // Same layout and same samples: nothing to measure.
        if expected.channels == actual.channels && expected.pixels == actual.pixels && diffPath == nil { return result }
        let match = PixelMatch.compare(expected.straightRGBA, actual.straightRGBA, options: options.pixel,
                                       makeDiff: diffPath != nil)
        result.differingPixels = match.differing
        result.antialiasedPixels = match.antialiased
        let allowed = match.differing <= options.maxDiffPixels || result.ratio <= options.maxDiffRatio
        result.status = match.differing == 0 || allowed ? .ok : .diff
        if let diffPath, let picture = match.diffImage, result.status == .diff || match.differing > 0 {
            do {
                let folder = (diffPath as NSString).deletingLastPathComponent
                if !folder.isEmpty { try FileSystem.makeDirectories(folder) }
                try FileSystem.writeAtomically(try PNGEncoder.encode(picture.reducedForOutput(), compression: .fast),
                                               to: diffPath)
            } catch {
                result.status = .error
                result.detail = "cannot write the diff picture: \(MihirakiError.from(error, path: diffPath).description)"
            }
        }
        return result
    }

    /// Compares two image files; byte-identical files are equal without decoding.
    /// - Returns: the comparison; `.error` names an unreadable file.
    public static func compareFiles(expected: String, actual: String, options: Options) -> FileComparison {
        do {
            let bytes = try ParallelMap.run(2, jobs: 2) { i in Result { try FileSystem.read(i == 0 ? expected : actual) } }
                .map { try $0.get() }
            // Byte-identical files are identical images: no decoding at all.
            if bytes[0] == bytes[1] && options.diffPath == nil {
                let header = try header(bytes[0], path: expected)
                return FileComparison(name: actual, status: .ok, totalPixels: header.width * header.height)
            }
            let paths = [expected, actual]
            let images = try ParallelMap.run(2, jobs: 2) { i in Result { try decode(bytes[i], path: paths[i]) } }
                .map { try $0.get() }
            return compare(expected: images[0], actual: images[1], name: actual, options: options,
                           diffPath: options.diffPath)
        } catch {
            return FileComparison(name: actual, status: .error, detail: MihirakiError.from(error, path: actual).description)
        }
    }

    /// Compares every PNG under two folders, matched by relative path, in
    /// natural order. Diff pictures go to `options.diffPath/<relative path>`.
    /// - Returns: one comparison per file on either side, `missing` and `extra` included.
    /// - Throws: ``MihirakiError`` when a folder cannot be read.
    public static func compareFolders(expected: String, actual: String, options: Options) throws -> [FileComparison] {
        let expectedFiles = Set(try pngFiles(under: expected)), actualFiles = Set(try pngFiles(under: actual))
        let all = expectedFiles.union(actualFiles).sorted(by: NaturalOrder.less)
        return all.map { name in
            if !actualFiles.contains(name) { return FileComparison(name: name, status: .missing) }
            if !expectedFiles.contains(name) { return FileComparison(name: name, status: .extra) }
            var fileOptions = options
            fileOptions.diffPath = options.diffPath.map { $0 + "/" + name }
            var result = compareFiles(expected: expected + "/" + name, actual: actual + "/" + name, options: fileOptions)
            result.name = name
            return result
        }
    }

    static func load(_ path: String) throws -> PixelBuffer {
        try decode(try FileSystem.read(path), path: path)
    }

    static func decode(_ bytes: [UInt8], path: String) throws -> PixelBuffer {
        try MihirakiError.wrapping(path: path) { try PageDecoder.decode(bytes) }
    }

    static func header(_ bytes: [UInt8], path: String) throws -> PageHeader {
        try MihirakiError.wrapping(path: path) { try PageDecoder.header(of: bytes) }
    }

    static func pngFiles(under root: String) throws -> [String] {
        try FolderSource(root: root).listFiles().filter {
            $0.lowercased().hasSuffix(".png") && !$0.split(separator: "/").contains { $0.hasPrefix(".") }
        }
    }
}

