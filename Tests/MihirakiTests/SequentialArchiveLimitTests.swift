import Foundation
import MihirakiCodecs
import MihirakiTestSupport
import Testing
@testable import Mihiraki

@Suite("Archive books: bombs, a large ComicInfo, encryption and fingerprints", .tags(.library), .timeLimit(.minutes(10)))
struct SequentialArchiveLimitTests {
    /// A RAR, 7z or tar book is unpacked whole on its first read: a CB7 of
    /// 123 KB unpacked 768 MiB into the temporary folder, each entry held in
    /// memory first, and one of a few MB could fill the disk.
    @Test("A gzipped tar of 92 KB that would unpack to 80 MiB is refused naming it as a decompression bomb")
    func unpackingBomb() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/bomb.cbt"
        let script = #"""
            import struct, sys, tarfile, zlib
            def entry(name, size):
                info = tarfile.TarInfo(name)
                info.size = size
                return info.tobuf(format=tarfile.USTAR_FORMAT)
            def flushed(data):
                c = zlib.compressobj(9, zlib.DEFLATED, -15)
                return c.compress(data) + c.flush(zlib.Z_FULL_FLUSH)
            page = open(sys.argv[2], "rb").read()
            page += bytes(-len(page) % 512)
            # After a full flush each MiB of zeros compresses to the same bytes.
            mib = flushed(bytes(1 << 20))
            first = entry("p0.png", len(page)) + page
            body, crc, size = flushed(first), zlib.crc32(first), len(first)
            for n in (1, 2):
                header = entry(f"p{n}.png", 40 << 20)
                body += flushed(header) + mib * 40
                crc, size = zlib.crc32(header, crc), size + 512 + (40 << 20)
                for _ in range(40):
                    crc = zlib.crc32(bytes(1 << 20), crc)
            body += flushed(bytes(1024)) + zlib.compressobj(9, zlib.DEFLATED, -15).flush()
            crc, size = zlib.crc32(bytes(1024), crc), size + 1024
            gzip = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + body + struct.pack("<II", crc, size & 0xFFFFFFFF)
            open(sys.argv[1], "wb").write(gzip)
            """#
        let python = try runTool("/usr/bin/env", ["python3", "-c", script, book, Fixtures.sampleBook.path + "/page2.png"])
        try #require(python.status == 0, "\(python.stderr)")
        #expect(throws: MihirakiError(.badBook, path: book, "unpacks to more than 100 times its size (64 MiB; a decompression bomb?)")) {
            _ = try SpreadPlan(book: try Book.load(book), options: LayoutOptions())
        }
    }

    /// `ComicInfo.xml` was read whole (from a tar, up to 1 MiB, failing the
    /// book past it): a ZIP's inflating to a GiB would be held by loading
    /// the book, which `serve` does in its own process.
    @Test("A ComicInfo.xml over 16 MiB is ignored in a warning, in a folder, a ZIP and a tar, and the tar is not unpacked")
    func largeComicInfo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("src/p1.png", try Fixtures.solidPNG(width: 30, height: 45, [90]))
        try folder.write("src/ComicInfo.xml", Array("<ComicInfo><Manga>YesAndRightToLeft</Manga>".utf8)
                                                + [UInt8](repeating: 0x20, count: 17 << 20) + Array("</ComicInfo>".utf8))
        try bsdtar(["--format", "ustar", "-cf", folder.path + "/book.cbt", "-C", folder.path + "/src", "."])
        try bsdtar(["--format", "zip", "-cf", folder.path + "/book.cbz", "-C", folder.path + "/src", "."])
        for name in ["src", "book.cbt", "book.cbz"] {
            let path = folder.path + "/" + name
            let book = try Book.load(path)
            #expect(book.comicInfo == nil, "\(name)")
            #expect(book.warnings.map(\.message) == ["ignored: larger than 16 MiB, more than any ComicInfo.xml holds"], "\(name)")
            if let archive = book.storage as? SequentialArchiveSource { #expect(!archive.isUnpacked) }
        }
    }

    @Test("An encrypted ZIP (bsdtar, ZipCrypto) fails its book with one line saying it is encrypted")
    func encrypted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SequentialArchiveTests.makeSource(folder)
        let path = folder.path + "/secret.cbz"
        try bsdtar(["--format", "zip", "--options", "zip:encryption=zipcrypt", "--passphrase", "secret",
                    "-cf", path, "-C", folder.path + "/src", "."])
        #expect { _ = try Book.load(path) } throws: { error in
            let error = error as? MihirakiError
            return error?.path == path && error?.message.contains("encrypted") == true && error?.code == .badBook
        }
    }

    @Test("A CB7's fingerprint comes from the archive's bytes: no unpacking, and any change shows")
    func fingerprintWithoutUnpacking() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SequentialArchiveTests.makeSource(folder)
        let path = folder.path + "/book.cb7"
        try bsdtar(["--format", "7zip", "-cf", path, "-C", folder.path + "/src", "."])
        let book = try Book.load(path)
        let before = try Fingerprint.of(book, options: LayoutOptions(), run: RunOptions())
        #expect((book.storage as? SequentialArchiveSource)?.isUnpacked == false)
        try folder.write("src/ch1/p3.png", try Fixtures.solidPNG(width: 30, height: 45, [1, 2, 3]))
        try FileManager.default.removeItem(atPath: path)
        try bsdtar(["--format", "7zip", "-cf", path, "-C", folder.path + "/src", "."])
        let after = try Fingerprint.of(try Book.load(path), options: LayoutOptions(), run: RunOptions())
        #expect(before != after && before.count == 16)
    }
}
