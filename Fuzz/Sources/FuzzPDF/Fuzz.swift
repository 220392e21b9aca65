import Foundation
import Mihiraki

let path = NSTemporaryDirectory() + "mihiraki-fuzz-\(getpid()).pdf"

/// Any bytes as a PDF book: load it (structure, catalog), plan it (every
/// page's header: picture or page box) and render its first spreads small
/// (pictures read, samples unpacked, other pages drawn).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else { return 0 }
    var options = LayoutOptions()
    options.size = .exact(width: 64, height: 48)
    options.maxPixels = 4_000_000
    if let book = try? Book.load(path), let plan = try? BookPlan(book: book, options: options) {
        for index in 0..<min(plan.spreadCount, 8) { _ = try? plan.renderSpread(at: index) }
    }
    return 0
}
