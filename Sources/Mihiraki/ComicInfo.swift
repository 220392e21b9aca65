import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The parts of a ComicRack/Anansi `ComicInfo.xml` that decide a layout.
public struct ComicInfo: Hashable, Sendable {
    /// `<Manga>`: `YesAndRightToLeft` → right-to-left, `No` → left-to-right;
    /// other values (`Yes`, `Unknown`) say nothing about direction.
    public var direction: ReadingDirectionHint?

    public enum ReadingDirectionHint: String, Hashable, Sendable {
        case rightToLeft, leftToRight
    }

    /// One `<Page>` element.
    public struct Page: Hashable, Sendable {
        /// 0-based index into the book's images, before deletions.
        public var image: Int
        /// `Type`, split on spaces and lower-cased (`frontcover`, `deleted`, …).
        public var types: Set<String>
        /// `DoublePage="true"`.
        public var doublePage: Bool

        public var isDeleted: Bool { types.contains("deleted") }
        public var isFrontCover: Bool { types.contains("frontcover") }
    }

    /// Pages by their `Image` index; a later element for the same index wins.
    public var pages: [Int: Page]

    public init(direction: ReadingDirectionHint? = nil, pages: [Int: Page] = [:]) {
        self.direction = direction
        self.pages = pages
    }

    /// Parses the document.
    /// - Throws: `MihirakiError` (`.badBook`) with the parser's reason when the XML is malformed.
    public static func parse(_ bytes: [UInt8]) throws -> ComicInfo {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        let reader = Reader()
        parser.delegate = reader
        // FoundationXML's parse() can report success after recovering from an
        // error, so the error itself is what counts.
        let parsed = parser.parse()
        if !parsed || parser.parserError != nil {
            throw MihirakiError(.badBook, "ComicInfo.xml: malformed XML near line \(max(parser.lineNumber, 1))")
        }
        guard reader.sawRoot else { throw MihirakiError(.badBook, "ComicInfo.xml: not a ComicInfo document") }
        return reader.info
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var info = ComicInfo()
        var sawRoot = false
        private var text = ""
        private var inManga = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            switch name {
            case "ComicInfo": sawRoot = true
            case "Manga": inManga = true; text = ""
            case "Page":
                guard let image = attributes["Image"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
                      image >= 0 else { return }
                let types = Set((attributes["Type"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," })
                    .map { $0.lowercased() })
                let double = attributes["DoublePage"]?.trimmingCharacters(in: .whitespaces).lowercased() == "true"
                info.pages[image] = Page(image: image, types: types, doublePage: double)
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inManga { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard name == "Manga" else { return }
            inManga = false
            switch text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
            case "yesandrighttoleft": info.direction = .rightToLeft
            case "no": info.direction = .leftToRight
            default: break
            }
        }
    }
}
