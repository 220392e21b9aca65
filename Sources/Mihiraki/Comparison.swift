import Foundation
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

/// The result of comparing one expected image with its actual counterpart.
public struct FileComparison: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable {
        /// Equal, or different within the allowed tolerance.
        case ok
        /// More pixels differ than allowed, or the sizes differ.
        case diff
        /// In EXPECTED, not in ACTUAL.
        case missing
        /// In ACTUAL, not in EXPECTED.
        case extra
        /// One side could not be read.
        case error
    }

    /// Relative path (directories) or the actual file's path.
    public var name: String
    public var status: Status
    public var differingPixels = 0
    public var antialiasedPixels = 0
    public var totalPixels = 0
    /// `W×H vs W×H` when the sizes differ; the reason when unreadable.
    public var detail: String?

    public var ratio: Double { totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels) }

    /// The report line: `name: ok`, `name: DIFF 12 px (0.0004 %)`, `name: missing`, ….
    public var line: String {
        switch status {
        case .ok where differingPixels > 0:
            return "\(name): ok (\(differingPixels) px within tolerance)"
        case .ok: return "\(name): ok"
        case .diff:
            if let detail { return "\(name): DIFF \(detail)" }
            return "\(name): DIFF \(differingPixels) px (\(Self.percent(ratio)) %)"
        case .missing: return "\(name): missing"
        case .extra: return "\(name): extra"
        case .error: return "\(name): error: \(detail ?? "unreadable")"
        }
    }

    static func percent(_ ratio: Double) -> String {
        let value = ratio * 100
        if value >= 0.01 { return String(format: "%.2f", value) }
        return String(format: "%.4g", value)
    }
}

/// `mihiraki compare`: pixelmatch-style comparison of PNG files or folders.
public enum Comparator {
    public struct Options: Sendable {
        public var pixel = PixelMatch.Options()
        /// Allow up to this many differing pixels per image.
        public var maxDiffPixels = 0
        /// Allow up to this fraction of differing pixels per image.
        public var maxDiffRatio = 0.0
        /// Where to write diff pictures: a file (file mode) or a folder (folder mode).
        public var diffPath: String?

        public init() {}
    }

    /// Compares two images already in memory.
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
            } catch let error as MihirakiError {
                result.status = .error
                result.detail = "cannot write the diff picture: \(error.description)"
            } catch {
                result.status = .error
                result.detail = "cannot write the diff picture \(diffPath): \(error)"
            }
        }
        return result
    }

    /// Compares two PNG files.
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
        } catch let error as MihirakiError {
            return FileComparison(name: actual, status: .error, detail: error.description)
        } catch {
            return FileComparison(name: actual, status: .error, detail: "\(error)")
        }
    }

    /// Compares every PNG under two folders, matched by relative path, in
    /// natural order. Diff pictures go to `options.diffPath/<relative path>`.
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
        do {
            return try PageDecoder.decode(bytes)
        } catch let error as CodecError {
            throw MihirakiError(.badPage, path: path, error.message)
        }
    }

    static func header(_ bytes: [UInt8], path: String) throws -> PageHeader {
        do {
            return try PageDecoder.header(of: bytes)
        } catch let error as CodecError {
            throw MihirakiError(.badPage, path: path, error.message)
        }
    }

    static func pngFiles(under root: String) throws -> [String] {
        try FolderSource(root: root).listFiles().filter {
            $0.lowercased().hasSuffix(".png") && !$0.split(separator: "/").contains { $0.hasPrefix(".") }
        }
    }
}

