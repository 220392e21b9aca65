extension ComicInfo {
    /// A `ComicInfo.xml` that marks the images `images` (0-based indices into
    /// the book's images) `DoublePage="true"`: `original` with the attribute
    /// set on each image's `<Page>` element, or an element added to
    /// `<Pages>` for an image that has none; everything else is kept as
    /// written. Without a readable original, a document with only those
    /// pages. A library's reader (and Mihiraki) then reads two such
    /// consecutive upright pages as the halves of one artwork.
    package static func markingDoublePages(_ images: Set<Int>, in original: [UInt8]?) -> [UInt8] {
        let sorted = images.sorted()
        guard let original, (try? parse(original)) != nil, var text = String(validating: original, as: UTF8.self),
              text.firstRange(of: "</ComicInfo>") != nil else {
            return Array(fresh(sorted).utf8)
        }
        var missing: [Int] = []
        for image in sorted where !mark(image, in: &text) { missing.append(image) }
        if !missing.isEmpty {
            let added = missing.map { "    <Page Image=\"\($0)\" DoublePage=\"true\" />\n" }.joined()
            if let close = text.ranges(of: "</Pages>").last {
                // At the start of the closing tag's line when only indentation precedes it there.
                var lineStart = close.lowerBound
                while lineStart > text.startIndex, text[text.index(before: lineStart)] == " " || text[text.index(before: lineStart)] == "\t" {
                    lineStart = text.index(before: lineStart)
                }
                let atLineStart = lineStart == text.startIndex || text[text.index(before: lineStart)] == "\n"
                text.insert(contentsOf: atLineStart ? added : "\n" + added, at: atLineStart ? lineStart : close.lowerBound)
            } else if let close = text.ranges(of: "</ComicInfo>").last {
                text.insert(contentsOf: "  <Pages>\n" + added + "  </Pages>\n", at: close.lowerBound)
            }
        }
        return Array(text.utf8)
    }

    /// A document holding only `<Pages>` with the images marked.
    private static func fresh(_ images: [Int]) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<ComicInfo>\n  <Pages>\n"
            + images.map { "    <Page Image=\"\($0)\" DoublePage=\"true\" />\n" }.joined()
            + "  </Pages>\n</ComicInfo>\n"
    }

    /// Sets `DoublePage="true"` on the `<Page>` element of `image`; false when there is none.
    private static func mark(_ image: Int, in text: inout String) -> Bool {
        var searchStart = text.startIndex
        while let open = text[searchStart...].firstRange(of: "<Page") {
            guard let close = text[open.upperBound...].firstIndex(of: ">") else { return false }
            searchStart = close
            let tag = text[open.upperBound..<close]
            guard tag.first?.isWhitespace == true, attribute("Image", in: tag).map(Int.init) == image else { continue }
            if let value = attributeRange("DoublePage", in: tag) {
                text.replaceSubrange(value, with: "true")
            } else {
                text.insert(contentsOf: " DoublePage=\"true\"", at: open.upperBound)
            }
            return true
        }
        return false
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        attributeRange(name, in: tag).map { String(tag[$0]).trimmingWhitespace() }
    }

    /// Where the value of attribute `name` lies in a tag's text (without its quotes).
    private static func attributeRange(_ name: String, in tag: Substring) -> Range<String.Index>? {
        var start = tag.startIndex
        while let found = tag[start...].firstRange(of: name) {
            start = found.upperBound
            guard found.lowerBound > tag.startIndex, tag[tag.index(before: found.lowerBound)].isWhitespace else { continue }
            var index = found.upperBound
            while index < tag.endIndex, tag[index].isWhitespace { index = tag.index(after: index) }
            guard index < tag.endIndex, tag[index] == "=" else { continue }
            index = tag.index(after: index)
            while index < tag.endIndex, tag[index].isWhitespace { index = tag.index(after: index) }
            guard index < tag.endIndex, tag[index] == "\"" || tag[index] == "'" else { continue }
            let quote = tag[index]
            let valueStart = tag.index(after: index)
            guard let end = tag[valueStart...].firstIndex(of: quote) else { return nil }
            return valueStart..<end
        }
        return nil
    }
}
