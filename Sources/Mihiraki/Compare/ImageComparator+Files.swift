import Foundation
import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

extension ImageComparator {
    /// Compares two image files (any format Mihiraki reads, told by their bytes);
    /// byte-identical files are equal without decoding.
    /// - Returns: the comparison; `.error` names an unreadable file.
    public static func compareFiles(expected: String, actual: String, options: Options) -> FileComparison {
        compareFiles(expected: expected, actual: actual, name: actual, options: options,
                     key: FileSystem.lastComponent(of: actual))
    }

    static func compareFiles(expected: String, actual: String, name: String, options: Options,
                             key: String) -> FileComparison {
        let sources = Sources(key: key, expectedFile: expected, actualFile: actual)
        do {
            try options.validate()
            let bytes = try ParallelMap.run(2, jobs: 2) { i in Result { try FileSystem.read(i == 0 ? expected : actual) } }
                .map { try $0.get() }
            // Byte-identical files are identical images: no decoding at all.
            if bytes[0] == bytes[1] && options.diffPath == nil {
                let header = try header(bytes[0], path: expected)
                var result = FileComparison(name: name, status: .ok, totalPixels: header.width * header.height)
                let ignore = try ignoreMask(width: header.width, height: header.height, options: options)
                result.totalPixels -= PixelMatch.ignoredPixels(ignore)
                result.pictures = try options.reportFolder.map {
                    try ReportAssets(folder: $0, key: key).add(expectedFile: expected, actualFile: nil, actual: nil,
                                                               identical: true)
                }
                return result
            }
            let paths = [expected, actual]
            let images = try ParallelMap.run(2, jobs: 2) { i in Result { try decode(bytes[i], path: paths[i]) } }
                .map { try $0.get() }
            return compare(expected: images[0], actual: images[1], name: name, options: options,
                           diffPath: options.diffPath, sources: sources)
        } catch let error as MaskMismatch {
            return FileComparison(name: name, status: .error, detail: error.description)
        } catch {
            return FileComparison(name: name, status: .error, detail: MihirakiError.from(error, path: actual).description)
        }
    }

    /// Compares every image under two folders, matched by relative path, in
    /// natural order. Diff pictures go to `options.diffPath/<relative path>`.
    /// - Returns: one comparison per file on either side, `missing` and `extra` included.
    /// - Throws: ``MihirakiError``: `.usage` for invalid options, or when a folder cannot be read.
    public static func compareFolders(expected: String, actual: String, options: Options) throws -> [FileComparison] {
        try options.validate()
        let expectedFiles = Set(try imageFiles(under: expected)), actualFiles = Set(try imageFiles(under: actual))
        let all = expectedFiles.union(actualFiles).sorted(by: NaturalOrder.less)
        return all.map { name in
            let report = options.reportFolder.map { ReportAssets(folder: $0, key: name) }
            if !actualFiles.contains(name) || !expectedFiles.contains(name) {
                let missing = !actualFiles.contains(name)
                var result = FileComparison(name: name, status: missing ? .missing : .extra)
                do {
                    result.pictures = try report?.add(expectedFile: missing ? expected + "/" + name : nil,
                                                      actualFile: missing ? nil : actual + "/" + name, actual: nil)
                } catch {
                    result.status = .error
                    result.detail = "cannot write a picture: \(MihirakiError.from(error, path: name).description)"
                }
                return result
            }
            var fileOptions = options
            fileOptions.diffPath = options.diffPath.map { $0 + "/" + name }
            return compareFiles(expected: expected + "/" + name, actual: actual + "/" + name, name: name,
                                options: fileOptions, key: name)
        }
    }

    /// Decodes an image file (a mask, say).
    package static func load(_ path: String) throws -> PixelBuffer {
        try decode(try FileSystem.read(path), path: path)
    }

    static func decode(_ bytes: [UInt8], path: String) throws -> PixelBuffer {
        try MihirakiError.wrapping(path: path) { try PageDecoder.decode(bytes) }
    }

    static func header(_ bytes: [UInt8], path: String) throws -> PageHeader {
        try MihirakiError.wrapping(path: path) { try PageDecoder.header(of: bytes) }
    }

    /// Extensions of the formats Mihiraki decodes.
    static let imageExtensions = ImageFormat.readableExtensions

    static func imageFiles(under root: String) throws -> [String] {
        try FolderSource(root: root).listFiles().filter { path in
            guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  let dot = path.lastIndex(of: ".") else { return false }
            return imageExtensions.contains(path[path.index(after: dot)...].lowercased())
        }
    }
}
