import Foundation
import MihirakiTestSupport
import Testing
@testable import Mihiraki
import MihirakiCore

/// Measure, then plan, then render: what a plan measured is never measured
/// again by a plan with other options that ask the same of the pages.
@Suite("Measuring once: a plan with other options reads only what they change", .tags(.library))
struct MeasureOnceTests {
    @Test("Replanned from measured facts: another pairing threshold or format reads no page; another size or crop limit measures the cut pages again")
    func replannedReadsOnlyWhatChanged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (index, seed) in [1, 2, 3, 4].enumerated() {
            try folder.write("book/p\(index + 1).png", try SplitAndCropTests.page(width: 300, height: 450, border: (0, 20, 0, 0),
                                                                                seed: UInt64(seed)))
        }
        var options = LayoutOptions()
        options.size = .height(300)
        options.pairing = .auto
        options.cropBorders = true
        let measured = try SpreadPlan(book: Book.load(folder.path + "/book"), options: options)
        // Every page is damaged now: any plan that reads one fails, naming it.
        for index in 1...4 { try folder.write("book/p\(index).png", Array("not a picture".utf8)) }

        var threshold = options
        threshold.pairingThreshold = 0.9
        var format = options
        format.encoding.format = .webp
        for changed in [threshold, format] {
            let replanned = try measured.replanned(with: changed)
            #expect(replanned.cuts == measured.cuts)
            #expect(replanned.text == measured.text)
        }
        // A cut is measured in a decode whose size follows the canvas, and a crop limit changes what is asked.
        var size = options
        size.size = .height(400)
        var limit = options
        limit.cropLimit = 5
        for changed in [size, limit] {
            #expect { try measured.replanned(with: changed) } throws: { ($0 as? MihirakiError)?.path?.hasSuffix("p1.png") == true }
        }
        // Without cropping, pairing reads the edges it already has: nothing.
        var uncut = options
        uncut.cropBorders = false
        #expect(try measured.replanned(with: uncut).facts.edges == measured.facts.edges)
    }
}
