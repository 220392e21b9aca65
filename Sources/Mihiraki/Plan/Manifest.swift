import Foundation
import MihirakiCore

/// The `manifest.json` of a rendered book, and the document `plan --json`
/// prints: every spread's file and where each page and blank went.
///
/// A plan produces it (``BookPlan/manifest``), ``json`` prints it, and the
/// golden check decodes the one on disk and compares the two as values.
/// See <doc:ManifestFormat>.
public struct Manifest: Codable, Hashable, Sendable {
    /// Canvas size in pixels.
    public struct Canvas: Codable, Hashable, Sendable, CustomStringConvertible {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// `2048×1536`.
        public var description: String { "\(width)×\(height)" }
    }

    /// Where a slot sits on the canvas.
    public enum Side: String, Codable, Hashable, Sendable {
        /// The left page of a spread.
        case left
        /// The right page of a spread.
        case right
        /// A wide page across the whole spread.
        case wide
        /// The one page of a single-mode image.
        case single
    }

    /// One page or blank on a spread.
    public struct Slot: Codable, Hashable, Sendable, CustomStringConvertible {
        /// Where it sits.
        public var side: Side
        /// The 1-based page number after deletions; `nil` for a blank.
        public var page: Int?
        /// The page's path inside the book; `nil` for a blank.
        public var source: String?
        /// `true` for a blank dummy page; absent otherwise.
        public var blank: Bool?
        /// `[x, y, width, height]` in canvas pixels, after snapping.
        public var rect: [Int]

        /// `left 2 [37, 66, 987, 1404] p2.png`, or `right blank [...]`.
        public var description: String {
            "\(side.rawValue) \(page.map(String.init) ?? "blank") [\(rect.map(String.init).joined(separator: ", "))]"
                + (source.map { " " + $0 } ?? "")
        }
    }

    /// One output image.
    public struct Spread: Codable, Hashable, Sendable, CustomStringConvertible {
        /// `spread-001.png`, …
        public var file: String
        /// Slots from left to right.
        public var slots: [Slot]

        /// The spread in plan notation (`[2|3]`, `[5W]`, `[4]`).
        public var notation: String {
            let pages = slots.map { $0.page.map(String.init) ?? "x" }
            switch slots.first?.side {
            case .wide?: return "[\(pages.first ?? "?")W]"
            case .single?: return "[\(pages.first ?? "?")]"
            default: return "[" + pages.joined(separator: "|") + "]"
            }
        }

        /// The notation and every slot: `[2|3] left 2 [37, 66, 987, 1404] p2.png, right 3 […] p3.png`.
        public var description: String {
            notation + " " + slots.map(\.description).joined(separator: ", ")
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
    /// Every output image, in file order.
    public var spreads: [Spread]

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
            json.key("book"); json.string(book)
            json.key("canvas")
            json.object(inline: true) {
                json.key("width"); json.number(canvas.width)
                json.key("height"); json.number(canvas.height)
            }
            json.key("layout"); json.string(layout.rawValue)
            json.key("direction"); json.string(direction.rawValue)
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
            json.key("side"); json.string(slot.side.rawValue)
            json.key("page")
            if let page = slot.page { json.number(page) } else { json.null() }
            if let source = slot.source { json.key("source"); json.string(source) }
            if let blank = slot.blank { json.key("blank"); json.bool(blank) }
            json.key("rect"); json.numbers(slot.rect)
        }
    }
}

extension Manifest.Side {
    init(_ side: SlotSide) {
        switch side {
        case .left: self = .left
        case .right: self = .right
        case .wide: self = .wide
        case .single: self = .single
        }
    }
}
