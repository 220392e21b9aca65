import Foundation
import Mihiraki

let folder = NSTemporaryDirectory() + "mihiraki-fuzz-pairing-\(getpid())"

/// Any bytes as the pages of a book planned with what reads a page's
/// pixels before it is drawn: `--pairing auto` (a page's edges, from a
/// JPEG's coefficients or from any page's rows, and every measure of a
/// seam), `--crop-borders` and `--split-wide auto`. The input is written
/// as two pages, so the detector judges a seam between them. The first
/// byte picks which of the three run, the direction and the threshold; the
/// pages are the rest, named by what they start with. Errors are fine;
/// crashes, hangs and memory errors are what the fuzzer looks for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let choice = data[0], page = Data(bytes: data + 1, count: size - 1)
    let start = [UInt8](page.prefix(12))
    let ext = start.starts(with: [0xFF, 0xD8]) ? "jpg" : start.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png"
        : start.count == 12 && start[8..<12].elementsEqual("WEBP".utf8) ? "webp" : start.starts(with: Array("GIF".utf8)) ? "gif"
        : "jpg"
    try? FileManager.default.removeItem(atPath: folder)
    guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
          FileManager.default.createFile(atPath: "\(folder)/p1.\(ext)", contents: page),
          FileManager.default.createFile(atPath: "\(folder)/p2.\(ext)", contents: page) else { return 0 }
    var options = LayoutOptions()
    options.size = .exact(width: 64, height: 48)
    options.maxPixels = 4_000_000
    options.pairing = choice & 1 == 0 ? .auto : .static
    options.cropBorders = choice & 2 != 0
    options.splitWide = choice & 4 != 0 ? .auto : nil
    options.direction = choice & 8 != 0 ? .rtl : .ltr
    options.pairingThreshold = Double(choice >> 4) / 15
    if let book = try? Book.load(folder) {
        _ = try? BookPlan(book: book, options: options)
    }
    return 0
}
