extension ImageComparator {
    /// JUnit XML for CI systems: one `<testcase>` per compared file (class
    /// name from its folder, name from its file), a `<failure>` for each
    /// difference, missing or extra file, an `<error>` for an unreadable one.
    ///
    /// - Parameters:
    ///   - results: the comparisons, in the order to list them.
    ///   - suite: the test suite's name (and the class name of files at the top level).
    /// - Returns: the XML document, ending with a newline.
    public static func junit(_ results: [FileComparison], suite: String) -> String {
        let failures = results.filter { [.diff, .missing, .extra].contains($0.status) }.count
        let errors = results.filter { $0.status == .error }.count
        let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(XMLText.escape(suite))\" \(counts)>\n"
        xml += "  <testsuite name=\"\(XMLText.escape(suite))\" \(counts) skipped=\"0\">\n"
        for result in results {
            let slash = result.name.lastIndex(of: "/")
            let folder = slash.map { String(result.name[..<$0]) } ?? suite
            let file = slash.map { String(result.name[result.name.index(after: $0)...]) } ?? result.name
            xml += "    <testcase classname=\"\(XMLText.escape(folder))\" name=\"\(XMLText.escape(file))\""
            switch result.status {
            case .ok:
                xml += "/>\n"
            case .error:
                xml += ">\n      <error message=\"\(XMLText.escape(result.line))\" type=\"error\"/>\n    </testcase>\n"
            case .diff, .missing, .extra:
                xml += ">\n      <failure message=\"\(XMLText.escape(result.line))\" type=\"\(result.status.name)\">"
                xml += XMLText.escape(result.name + ": " + result.explanation) + "</failure>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }
}
