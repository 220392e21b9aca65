/// A strict, minimal XML tokenizer: elements, attributes, text with the five
/// named and numeric character references, comments, processing
/// instructions, CDATA and a DOCTYPE without an internal subset. Enough for
/// ComicInfo.xml; anything else is reported as malformed.
package struct XMLScanner {
    package enum Event: Equatable {
        case start(String, [String: String], selfClosing: Bool)
        case end(String)
        case text(String)
    }

    package struct Malformed: Error {
        package var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private let bytes: [UInt8]
    private var at = 0
    private(set) var line = 1

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package mutating func next() throws -> Event? {
        while at < bytes.count {
            if bytes[at] != UInt8(ascii: "<") { return .text(try text()) }
            if starts("<!--") { try skip(past: "-->", what: "comment"); continue }
            if starts("<?") { try skip(past: "?>", what: "processing instruction"); continue }
            if starts("<![CDATA[") {
                let start = at + 9
                try skip(past: "]]>", what: "CDATA section")
                return .text(String(decoding: bytes[start..<(at - 3)], as: UTF8.self))
            }
            if starts("<!") {
                if let close = find("[", from: at), let end = find(">", from: at), close < end {
                    throw Malformed("DOCTYPE with an internal subset")
                }
                try skip(past: ">", what: "declaration")
                continue
            }
            if starts("</") {
                at += 2
                let name = try self.name()
                skipSpace()
                try expect(">")
                return .end(name)
            }
            at += 1
            let name = try self.name()
            var attributes: [String: String] = [:]
            while true {
                let hadSpace = skipSpace()
                if starts("/>") { at += 2; return .start(name, attributes, selfClosing: true) }
                if starts(">") { at += 1; return .start(name, attributes, selfClosing: false) }
                guard hadSpace else { throw Malformed("bad character in <\(name)>") }
                let key = try self.name()
                skipSpace()
                try expect("=")
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                    throw Malformed("attribute \(key) has no quoted value")
                }
                let quote = bytes[at]
                at += 1
                guard let end = bytes[at...].firstIndex(of: quote) else { throw Malformed("unterminated attribute \(key)") }
                let raw = Array(bytes[at..<end])
                guard !raw.contains(UInt8(ascii: "<")) else { throw Malformed("'<' in attribute \(key)") }
                attributes[key] = try decodeReferences(raw)
                countLines(at, end + 1)
                at = end + 1
            }
        }
        return nil
    }

    private func starts(_ literal: String) -> Bool {
        let pattern = Array(literal.utf8)
        return bytes.count - at >= pattern.count && Array(bytes[at..<at + pattern.count]) == pattern
    }

    private func find(_ literal: String, from start: Int) -> Int? {
        let pattern = Array(literal.utf8)
        var i = start
        while i + pattern.count <= bytes.count {
            if bytes[i] == pattern[0] && Array(bytes[i..<i + pattern.count]) == pattern { return i }
            i += 1
        }
        return nil
    }

    private mutating func skip(past literal: String, what: String) throws {
        guard let end = find(literal, from: at + 1) else { throw Malformed("unterminated \(what)") }
        countLines(at, end)
        at = end + literal.utf8.count
    }

    private mutating func countLines(_ from: Int, _ to: Int) {
        for i in from..<min(to, bytes.count) where bytes[i] == 0x0A { line += 1 }
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = at
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) {
            if bytes[at] == 0x0A { line += 1 }
            at += 1
        }
        return at > start
    }

    private mutating func expect(_ literal: String) throws {
        guard starts(literal) else { throw Malformed("expected '\(literal)'") }
        at += literal.utf8.count
    }

    private mutating func name() throws -> String {
        let start = at
        while at < bytes.count, !" \t\r\n/>=<'\"&".utf8.contains(bytes[at]) { at += 1 }
        guard at > start else { throw Malformed("missing name") }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    private mutating func text() throws -> String {
        let end = bytes[at...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
        let raw = Array(bytes[at..<end])
        countLines(at, end)
        at = end
        return try decodeReferences(raw)
    }

    private func decodeReferences(_ raw: [UInt8]) throws -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        var i = 0
        while i < raw.count {
            guard raw[i] == UInt8(ascii: "&") else { out.append(raw[i]); i += 1; continue }
            guard let semicolon = raw[i...].firstIndex(of: UInt8(ascii: ";")), semicolon - i <= 12 else {
                throw Malformed("bare '&'")
            }
            let entity = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let value = named[entity] {
                out += Array(value.utf8)
            } else if entity.hasPrefix("#") {
                let digits = entity.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                guard let value, let scalar = Unicode.Scalar(value) else { throw Malformed("bad character reference &\(entity);") }
                out += Array(String(Character(scalar)).utf8)
            } else {
                throw Malformed("unknown entity &\(entity);")
            }
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars.drop(while: { $0.properties.isWhitespace })
        return String(String.UnicodeScalarView(scalars.reversed().drop(while: { $0.properties.isWhitespace }).reversed()))
    }
}
