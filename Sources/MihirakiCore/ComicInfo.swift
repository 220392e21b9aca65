/// The parts of a ComicRack/Anansi `ComicInfo.xml` that decide a layout.
///
/// Read with Mihiraki's own small XML scanner: FoundationXML's `XMLParser`
/// crashes on some malformed documents (found by fuzzing: invalid UTF-8 in a
/// tag name, a processing instruction without data), and a hostile file must
/// cost one warning, not the run. Pure: bytes in, values out.
public struct ComicInfo: Sendable {
    /// Why a `ComicInfo.xml` could not be read, in one line without the file name.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        /// `malformed XML near line 3: …` or `not UTF-8 text`.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// `<Manga>`: `YesAndRightToLeft` → right-to-left, `No` → left-to-right;
    /// other values (`Yes`, `Unknown`) say nothing about direction.
    package var direction: ReadingDirectionHint?

    package enum ReadingDirectionHint: String, Hashable, Sendable {
        case rightToLeft, leftToRight
    }

    /// One `<Page>` element.
    package struct Page: Hashable, Sendable {
        /// 0-based index into the book's images, before deletions.
        package var image: Int
        /// `Type`, split on spaces and lower-cased (`frontcover`, `deleted`, …).
        package var types: Set<String>
        /// `DoublePage="true"`.
        package var doublePage: Bool

        package var isDeleted: Bool { types.contains("deleted") }
        package var isFrontCover: Bool { types.contains("frontcover") }
    }

    /// Pages by their `Image` index; a later element for the same index wins.
    package var pages: [Int: Page]

    package init(direction: ReadingDirectionHint? = nil, pages: [Int: Page] = [:]) {
        self.direction = direction
        self.pages = pages
    }

    /// Parses the document.
    /// - Parameter bytes: the whole `ComicInfo.xml`, UTF-8.
    /// - Returns: the layout-relevant parts.
    /// - Throws: ``Malformed`` saying what is wrong (no file name: the caller knows the file).
    public static func parse(_ bytes: [UInt8]) throws -> ComicInfo {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Malformed(message: "not UTF-8 text")
        }
        var scanner = XMLScanner(Array(text.utf8))
        var info = ComicInfo()
        var open: [String] = []
        var sawRoot = false
        var manga = ""
        do {
            while let event = try scanner.next() {
                switch event {
                case .start(let name, let attributes, let selfClosing):
                    if open.isEmpty {
                        guard name == "ComicInfo", !sawRoot else { throw XMLScanner.Malformed("the root element is not ComicInfo") }
                        sawRoot = true
                    }
                    if name == "Page", let page = page(attributes) { info.pages[page.image] = page }
                    if !selfClosing { open.append(name) }
                case .end(let name):
                    guard open.last == name else { throw XMLScanner.Malformed("</\(name)> does not close <\(open.last ?? "")>") }
                    open.removeLast()
                    if name == "Manga" && open.count == 1 { info.direction = direction(manga) }
                case .text(let content):
                    if open.last == "Manga" && open.count == 2 { manga += content }
                    if open.isEmpty && !content.allSatisfy(\.isWhitespace) {
                        throw XMLScanner.Malformed("text outside the root element")
                    }
                }
            }
            guard sawRoot else { throw XMLScanner.Malformed("no ComicInfo element") }
            guard open.isEmpty else { throw XMLScanner.Malformed("<\(open.last!)> is never closed") }
        } catch let error as XMLScanner.Malformed {
            throw Malformed(message: "malformed XML near line \(scanner.line): \(error.reason)")
        }
        return info
    }

    static func direction(_ value: String) -> ReadingDirectionHint? {
        switch value.trimmingWhitespace().lowercased() {
        case "yesandrighttoleft": return .rightToLeft
        case "no": return .leftToRight
        default: return nil
        }
    }

    static func page(_ attributes: [String: String]) -> Page? {
        guard let image = attributes["Image"].flatMap({ Int($0.trimmingWhitespace()) }), image >= 0 else { return nil }
        let types = Set((attributes["Type"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() })
        let double = attributes["DoublePage"]?.trimmingWhitespace().lowercased() == "true"
        return Page(image: image, types: types, doublePage: double)
    }
}
