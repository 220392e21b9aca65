import Foundation
import Mihiraki

let path = NSTemporaryDirectory() + "mihiraki-fuzz-\(getpid()).cbz"

/// Any bytes as a .cbz book: load it (ComicInfo included) and read every entry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else { return 0 }
    if let book = try? Book.load(path) {
        for page in book.images { _ = try? book.read(page) }
    }
    return 0
}
