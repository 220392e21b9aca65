import MihirakiProcess
import Foundation
import MihirakiCodecs
import MihirakiRaster

/// Where the committed fixtures live, and builders for the ones tests make.
public enum Fixtures {
    /// The package's root folder.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every suite reaches its fixtures through here first, so this is where
    /// the test process routes its stderr through the filter `mihiraki`
    /// uses: the test log holds Mihiraki's lines, not libjxl's own.
    public static let testImages: URL = {
        ProcessSetup.quietLibraryChatter()
        return packageRoot.appendingPathComponent("TestImages")
    }()
    public static let pngSuite = testImages.appendingPathComponent("pngsuite")
    public static let sampleBook = testImages.appendingPathComponent("sample-book")

    public static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// scripts/make-pairing-set.py's four books of seed 7 (drawn family,
    /// `labels.json` beside them), the set the pairing tests share: made
    /// once and kept under `.build/test-fixtures`, named by the script's own
    /// bytes, so a changed script makes a new set. Read it in place; copy it
    /// to change it. The first two books are the script's `--books 2`.
    public static func pairingSet() throws -> String {
        switch sharedPairingSet {
        case .success(let path): return path
        case .failure(let error): throw error
        }
    }

    public struct PairingSetError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    private static let sharedPairingSet: Result<String, PairingSetError> = {
        let script = packageRoot.path + "/scripts/make-pairing-set.py"
        guard let bytes = FileManager.default.contents(atPath: script) else {
            return .failure(PairingSetError(description: "cannot read \(script)"))
        }
        // FNV-1a over the script: a new name whenever it changes.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let folder = packageRoot.path + "/.build/test-fixtures"
        let path = folder + "/pairing-set-7-4-" + String(hash, radix: 16)
        if FileManager.default.fileExists(atPath: path + "/labels.json") { return .success(path) }
        let making = path + ".making-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let made = try runTool("/usr/bin/env", ["python3", script, making, "--seed", "7", "--books", "4"])
            guard made.status == 0 else { return .failure(PairingSetError(description: made.stderr)) }
            // Another test run may have made it meanwhile: the same bytes either way.
            if (try? FileManager.default.moveItem(atPath: making, toPath: path)) == nil {
                try? FileManager.default.removeItem(atPath: making)
            }
            return FileManager.default.fileExists(atPath: path + "/labels.json")
                ? .success(path) : .failure(PairingSetError(description: "no set at \(path)"))
        } catch {
            return .failure(PairingSetError(description: "\(error)"))
        }
    }()

    /// An image of one colour.
    public static func solid(width: Int, height: Int, _ samples: [UInt8]) -> PixelBuffer {
        // Row by row: the tests' unoptimised build would take seconds over a large page pixel by pixel.
        let row = [UInt8]((0..<width).flatMap { _ in samples })
        var pixels: [UInt8] = []
        pixels.reserveCapacity(row.count * height)
        for _ in 0..<height { pixels.append(contentsOf: row) }
        return PixelBuffer(width: width, height: height, channels: samples.count, pixels: pixels)
    }

    /// A PNG of one colour (1–4 samples per pixel).
    public static func solidPNG(width: Int, height: Int, _ samples: [UInt8]) throws -> [UInt8] {
        try PNGEncoder.encode(solid(width: width, height: height, samples), compression: .fast)
    }

    /// A PNG with a hand-made IHDR (and a tiny IDAT), for headers no encoder would write.
    public static func pngWithHeader(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 0,
                                     idat: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) -> [UInt8] {
        var ihdr: [UInt8] = []
        for value in [width, height] { ihdr += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        ihdr += [bitDepth, colorType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// One PNG chunk with its length and CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let length = UInt32(data.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typeBytes + data
            + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc32(typeBytes + data) >> $0) }
    }

    /// Extends the file at `path` to 64 GiB (or `size`) with a hole: a file of
    /// many GiB whose blocks cost nothing, after whatever it starts with.
    public static func growSparse(_ path: String, to size: UInt64 = 64 << 30) throws {
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.truncate(atOffset: size)
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// An EXIF APP1 payload (`Exif\0\0` + TIFF) holding only an orientation.
    public static func exifOrientation(_ value: UInt16, bigEndian: Bool = false) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let le = [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: v >> $0) }
            return bigEndian ? le.reversed() : le
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8) + u16(1)
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0)
        tiff += u32(0)
        return Array("Exif".utf8) + [0, 0] + tiff
    }
}

/// A fresh folder under the system's temporary directory, removed on request.
public struct TemporaryFolder: Sendable {
    public let path: String

    public init(_ label: String = "mihiraki-test") throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Writes a file (creating folders on the way) and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

import ZIPFoundation

extension TemporaryFolder {
    /// Writes a ZIP archive holding `entries` (name, bytes), deflated or stored.
    @discardableResult
    public func writeArchive(_ name: String, _ entries: [(String, [UInt8])], deflate: Bool = false) throws -> String {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let archive = try Archive(url: url, accessMode: .create)
        for (entryName, bytes) in entries {
            let data = Data(bytes)
            try archive.addEntry(with: entryName, type: .file, uncompressedSize: Int64(data.count),
                                 modificationDate: Date(timeIntervalSince1970: 0),
                                 compressionMethod: deflate ? .deflate : .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url.path
    }
}

/// A `ComicInfo.xml` document.
public func comicInfoXML(manga: String? = nil, pages: [String] = []) -> [UInt8] {
    var xml = "<?xml version=\"1.0\"?>\n<ComicInfo xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
    xml += "  <Title>Test</Title>\n"
    if let manga { xml += "  <Manga>\(manga)</Manga>\n" }
    if !pages.isEmpty { xml += "  <Pages>\n" + pages.map { "    <Page \($0)/>\n" }.joined() + "  </Pages>\n" }
    return Array((xml + "</ComicInfo>\n").utf8)
}

extension Fixtures {
    /// A zlib stream of `count` zero bytes, deflated with fixed Huffman codes
    /// by hand: a first literal 0, then length-258 copies at distance 1.
    /// A few bytes per 258 zeros, so small files can claim huge images.
    public static func zlibZeros(count: Int) -> [UInt8] {
        var bits: [Bool] = []
        func put(_ value: Int, _ n: Int) { for i in 0..<n { bits.append((value >> i) & 1 == 1) } }  // LSB first
        func putCode(_ code: Int, _ n: Int) { for i in (0..<n).reversed() { bits.append((code >> i) & 1 == 1) } }
        put(1, 1); put(1, 2)                  // final block, fixed Huffman
        putCode(0b00110000, 8)                 // literal 0
        var left = count - 1
        while left >= 258 {
            putCode(0b11000101, 8)             // length code 285 (258)
            putCode(0, 5)                      // distance code 0 (1)
            left -= 258
        }
        while left > 0 { putCode(0b00110000, 8); left -= 1 }
        putCode(0, 7)                          // end of block (256)
        var bytes: [UInt8] = [0x78, 0x01]
        var byte: UInt8 = 0, n = 0
        for bit in bits {
            if bit { byte |= 1 << n }
            n += 1
            if n == 8 { bytes.append(byte); byte = 0; n = 0 }
        }
        if n > 0 { bytes.append(byte) }
        // Adler-32 of zeros: a = 1, b = count mod 65521.
        let b = UInt32(count % 65521)
        let adler = (b << 16) | 1
        return bytes + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
    }
}

/// A random number generator from a fixed seed (SplitMix64): a test that
/// draws random values draws the same ones on every run, so a failure can
/// be repeated.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A gray PNG whose pixels are stored, not compressed: any two of one size
/// have the same number of bytes.
public func storedPNG(width: Int, height: Int, gray: UInt8) -> [UInt8] {
    var raw: [UInt8] = []
    for _ in 0..<height { raw += [0] + [UInt8](repeating: gray, count: width) }
    let length = UInt16(raw.count)
    var zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
    zlib += raw
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
    zlib += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: (b << 16 | a) >> $0) }
    return Fixtures.pngWithHeader(width: UInt32(width), height: UInt32(height), idat: zlib)
}
