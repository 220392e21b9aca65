import MihirakiAnalysis
import Foundation
import MihirakiCodecs
import MihirakiCore

/// The `manifest.json` of a rendered book, and the document `plan --json`
/// prints: every spread's file and where each page and blank went.
///
/// A plan produces it (``SpreadPlan/manifest``), ``json`` prints it, and the
/// golden check decodes the one on disk and compares the two as values.
/// See <doc:ManifestFormat>.
public struct Manifest: Codable, Equatable, Sendable {
    /// Canvas size in pixels.
    public struct Canvas: Codable, Equatable, Sendable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// `2048×1536`.
        var text: String { "\(width)×\(height)" }
    }

    /// One page or blank on a spread.
    public struct Slot: Codable, Equatable, Sendable {
        /// Where it sits: `left` or `right` on a spread, `wide` across the
        /// whole spread, `single` in single-page mode.
        public var side: String
        /// The 1-based page number after deletions; `nil` for a blank.
        public var page: Int?
        /// The page's path inside the book; `nil` for a blank.
        public var source: String?
        /// `true` for a blank dummy page; absent otherwise.
        public var blank: Bool?
        /// `[x, y, width, height]` in canvas pixels, after snapping.
        public var rect: [Int]
        /// With `--split-wide`: which half of a wide page this is, `a` (read first) or `b`.
        public var half: String?
        /// With `--split-wide`: where the wide page was cut (on both its halves).
        public var split: Split?
        /// With `--crop-borders`: the box of the page drawn, `[x, y, width,
        /// height]` in the page's pixels as decoded (for a half, the wide page's).
        public var crop: [Int]?
        /// `[width, height]`: the pixels the page was drawn from (upright, a
        /// split's half or a crop), so a box on the canvas can be given in
        /// the page's own pixels; `nil` for a blank, and in manifests older
        /// than this key.
        public var pageSize: [Int]?

        /// Equal places; a manifest without `pageSize` (an older golden)
        /// still equals one with it.
        public static func == (a: Slot, b: Slot) -> Bool {
            a.side == b.side && a.page == b.page && a.source == b.source && a.blank == b.blank && a.rect == b.rect
                && a.half == b.half && a.split == b.split && a.crop == b.crop
                && (a.pageSize == nil || b.pageSize == nil || a.pageSize == b.pageSize)
        }

        /// `left 2 [37, 66, 987, 1404] p2.png`, or `right blank [...]`.
        var text: String {
            "\(side) \(leaf.notation) [\(rect.map(String.init).joined(separator: ", "))]" + (source.map { " " + $0 } ?? "")
        }

        /// The page, half or blank, as the plan notation writes it.
        var leaf: Leaf {
            guard let page else { return .blank }
            return half.flatMap(PageHalf.init(rawValue:)).map { .half(page, $0) } ?? .page(page)
        }
    }

    /// Where a wide page was cut into its halves.
    public struct Split: Codable, Equatable, Sendable {
        /// The first column of the right half, in the wide page's pixels as decoded.
        public var x: Int
        /// How sure the finder is of the fold, 0…1 (`--split-wide center`: 1).
        public var confidence: Double
    }

    /// `--crop-borders` and its limit.
    public struct CropBorders: Codable, Equatable, Sendable {
        /// `--crop-limit`, in percent.
        public var limit: Int
    }

    /// Two consecutive pages `--pairing auto` judged.
    public struct Seam: Codable, Equatable, Sendable {
        /// The two page numbers, in reading order.
        public var pages: [Int]
        /// How sure the detector is that they are one artwork, 0…1, in steps of 0.001.
        public var score: Double
        /// Whether they were taken as one artwork (the score reached `--pairing-threshold`).
        public var split: Bool
    }

    /// One output image.
    public struct Spread: Codable, Equatable, Sendable {
        /// `spread-001.png`, …
        public var file: String
        /// Slots from left to right.
        public var slots: [Slot]

        /// The spread in plan notation (`[2|3]`, `[5W]`, `[4]`), written by
        /// ``MihirakiCore/Spread``'s own description; `?` where a manifest
        /// read from disk does not describe a spread.
        var notation: String {
            let leaves = slots.map(\.leaf)
            switch (slots.first?.side, leaves.first) {
            case ("wide", let leaf?) where slots.count == 1 && leaf.pageNumber != nil:
                return MihirakiCore.Spread.wide(leaf.pageNumber!).description
            case ("single", .page(let page)?) where slots.count == 1: return MihirakiCore.Spread.single(page).description
            case ("single", .half(let page, let half)?) where slots.count == 1:
                return MihirakiCore.Spread.singleHalf(page, half).description
            case _ where slots.count == 2: return MihirakiCore.Spread.pair(left: leaves[0], right: leaves[1]).description
            default: return "[?]"
            }
        }

        /// The notation and every slot: `[2|3] left 2 [37, 66, 987, 1404] p2.png, right 3 […] p3.png`.
        var text: String {
            notation + " " + slots.map(\.text).joined(separator: ", ")
        }
    }

    /// The book's name as the user knows it (`vol01.cbz`, or a folder's name).
    public var book: String
    /// Canvas size in pixels.
    public var canvas: Canvas
    /// `spread` or `single`.
    public var layout: LayoutMode
    /// The reading direction used, after `auto` was resolved.
    public var direction: ReadingDirection
    /// What the output depends on (pages, `ComicInfo.xml`, options, release),
    /// as `render` recorded it; `plan --json` does not compute it.
    public var fingerprint: String?
    /// `auto` when pages were also paired from their pixels (`--pairing
    /// auto`); absent with static pairing, so those manifests are as before.
    public var pairing: PairingMode?
    /// With automatic pairing: every split artwork found, as `[first, second]`
    /// page numbers in reading order, whether or not it needed a repair.
    public var splits: [[Int]]?
    /// With automatic pairing: every pair of consecutive pages whose facing
    /// edges were judged, with the detector's confidence (0…1) that they are
    /// one artwork and whether they were taken as a split (`splits` lists
    /// the same pairs, in the form manifests had before confidences).
    public var seams: [Seam]?
    /// `auto` or `center` when wide pages were cut in two (`--split-wide`); absent otherwise.
    public var splitWide: SplitWideMode?
    /// With `--crop-borders`: its limit; absent otherwise.
    public var cropBorders: CropBorders?
    /// Every output image, in file order.
    public var spreads: [Spread]

    enum CodingKeys: String, CodingKey {
        case book, canvas, layout, direction, fingerprint, pairing, splits, seams, spreads
        case splitWide = "split_wide", cropBorders = "crop_borders"
    }

    /// Decodes a manifest written by Mihiraki.
    /// - Parameter json: the bytes of a `manifest.json`.
    /// - Throws: `DecodingError` when the document is not a Mihiraki manifest.
    public init(json: [UInt8]) throws {
        self = try JSONDecoder().decode(Manifest.self, from: Data(json))
    }

    init(book: String, canvas: Canvas, layout: LayoutMode, direction: ReadingDirection, spreads: [Spread]) {
        self.book = book
        self.canvas = canvas
        self.layout = layout
        self.direction = direction
        self.spreads = spreads
    }

    /// The document as Mihiraki writes it: keys in a fixed order, one slot
    /// per line, so the same plan always gives the same bytes.
    public var json: String {
        let json = JSONWriter()
        json.object {
            json.key("book"); json.string(PathBytes.shown(book))
            json.key("canvas")
            json.object(inline: true) {
                json.key("width"); json.number(canvas.width)
                json.key("height"); json.number(canvas.height)
            }
            json.key("layout"); json.string(layout.rawValue)
            json.key("direction"); json.string(direction.rawValue)
            if let fingerprint { json.key("fingerprint"); json.string(fingerprint) }
            if let pairing { json.key("pairing"); json.string(pairing.rawValue) }
            if let splits {
                json.key("splits")
                json.array { for split in splits { json.numbers(split) } }
            }
            if let seams {
                json.key("seams")
                json.array {
                    for seam in seams {
                        json.object(inline: true) {
                            json.key("pages"); json.numbers(seam.pages)
                            json.key("score"); json.thousandths(Int((seam.score * 1000).rounded()))
                            json.key("split"); json.bool(seam.split)
                        }
                    }
                }
            }
            if let splitWide { json.key("split_wide"); json.string(splitWide.rawValue) }
            if let cropBorders {
                json.key("crop_borders")
                json.object(inline: true) { json.key("limit"); json.number(cropBorders.limit) }
            }
            json.key("spreads")
            json.array {
                for spread in spreads {
                    json.object {
                        json.key("file"); json.string(spread.file)
                        json.key("slots")
                        json.array {
                            for slot in spread.slots { write(slot, to: json) }
                        }
                    }
                }
            }
        }
        return json.output + "\n"
    }

    private func write(_ slot: Slot, to json: JSONWriter) {
        json.object(inline: true) {
            json.key("side"); json.string(slot.side)
            json.key("page")
            if let page = slot.page { json.number(page) } else { json.null() }
            if let source = slot.source { json.key("source"); json.string(PathBytes.shown(source)) }
            if let blank = slot.blank { json.key("blank"); json.bool(blank) }
            json.key("rect"); json.numbers(slot.rect)
            if let pageSize = slot.pageSize { json.key("pageSize"); json.numbers(pageSize) }
            if let half = slot.half { json.key("half"); json.string(half) }
            if let split = slot.split {
                json.key("split")
                json.object(inline: true) {
                    json.key("x"); json.number(split.x)
                    json.key("confidence"); json.thousandths(Int((split.confidence * 1000).rounded()))
                }
            }
            if let crop = slot.crop { json.key("crop"); json.numbers(crop) }
        }
    }
}
