/// A small JSON writer that keeps keys in the order written, so manifests
/// read like the example in Mihiraki.docc/ManifestFormat.md and are byte-identical run to run.
package final class JSONWriter {
    private(set) var output = ""
    private var depth = 0
    private var needsComma: [Bool] = []
    private var inlineDepth = 0
    private var afterKey = false

    private func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        if let last = needsComma.last {
            if last { output += "," }
            needsComma[needsComma.count - 1] = true
            output += inlineDepth > 0 ? (last ? " " : "") : "\n" + String(repeating: "  ", count: depth)
        }
    }

    func key(_ name: String) {
        beginValue()
        output += quoted(name) + ": "
        afterKey = true
    }

    func string(_ value: String) { beginValue(); output += quoted(value) }
    func number(_ value: Int) { beginValue(); output += String(value) }
    /// A number in thousandths as a decimal: `0.912` for 912.
    func thousandths(_ value: Int) { beginValue(); output += decimal(thousandths: value) }
    func bool(_ value: Bool) { beginValue(); output += value ? "true" : "false" }
    func null() { beginValue(); output += "null" }
    func numbers(_ values: [Int]) {
        beginValue()
        output += "[" + values.map(String.init).joined(separator: ", ") + "]"
    }

    func object(inline: Bool = false, _ body: () -> Void) {
        container(open: "{", close: "}", inline: inline, body)
    }

    func array(_ body: () -> Void) {
        container(open: "[", close: "]", inline: false, body)
    }

    private func container(open: String, close: String, inline: Bool, _ body: () -> Void) {
        beginValue()
        output += inline ? open + " " : open
        if inline { inlineDepth += 1 }
        depth += 1
        needsComma.append(false)
        body()
        let hadContent = needsComma.removeLast()
        depth -= 1
        if inline {
            inlineDepth -= 1
            output += hadContent ? " " + close : close
        } else {
            output += hadContent ? "\n" + String(repeating: "  ", count: depth) + close : close
        }
    }

    private func quoted(_ text: String) -> String { Self.quoted(text) }

    /// `text` as a JSON string: quotes, backslashes and control characters
    /// escaped, everything else (slashes and non-ASCII included) as it is.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
