import Foundation

extension ImageComparator {
    /// Writes `folder/index.html`: a page a person opens from disk after a
    /// failing run. A summary, then one entry per file — failures first — with
    /// four views of expected and actual: side by side (with the diff),
    /// swipe, onion skin and toggle, by mouse or keyboard; a switch shows only
    /// the failures. No network fetch, no build step: plain HTML, CSS and a
    /// little script. The pictures are the ones the comparisons put in
    /// the folder (``Options/reportFolder``).
    ///
    /// - Parameters:
    ///   - results: the comparisons, in their natural order.
    ///   - folder: the report folder.
    ///   - title: the page's heading, such as the command that was run.
    /// - Throws: ``MihirakiError`` when the page cannot be written.
    public static func writeReport(_ results: [FileComparison], to folder: String, title: String) throws {
        try writeReport(results, to: folder, title: title, books: [])
    }

    /// The report of two renders compared page by page: each book's plan
    /// changes on top, and on each spread the verdicts of its page slots
    /// and boxes around what changed.
    /// - Parameter books: each book's comparison, with the path its spread
    ///   files have in `results` before their names (`""` for one book).
    package static func writeReport(_ results: [FileComparison], to folder: String, title: String,
                                    books: [(prefix: String, comparison: BookComparison)]) throws {
        try FileSystem.makeDirectories(folder)
        let ordered = results.filter(\.failed) + results.filter { !$0.failed }
        var html = ReportPage.head(title: title, summary: ReportPage.summary(results))
        html += ReportPage.planChanges(books)
        for (index, result) in ordered.enumerated() {
            html += ReportPage.entry(result, index: index, marks: ReportMarks(books: books, file: result.name))
        }
        html += ReportPage.tail
        try FileSystem.writeAtomically(Array(html.utf8), to: folder + "/index.html")
    }
}

/// The pieces of the report page.
enum ReportPage {
    static func summary(_ results: [FileComparison]) -> String {
        func count(_ status: FileComparison.Status) -> Int { results.filter { $0.status == status }.count }
        let failed = results.filter(\.failed).count
        var parts = ["\(results.count) compared", "\(failed) failed"]
        for (status, word) in [(FileComparison.Status.diff, "differ"), (.missing, "missing"), (.extra, "extra"),
                               (.error, "unreadable")] where count(status) > 0 {
            parts.append("\(count(status)) \(word)")
        }
        parts.append("\(count(.ok)) passed")
        return parts.joined(separator: " · ")
    }

    /// Each book's plan changes, before any spread.
    static func planChanges(_ books: [(prefix: String, comparison: BookComparison)]) -> String {
        let changed = books.filter { !$0.comparison.plan.isEmpty }
        guard !changed.isEmpty else { return "" }
        var html = "<section class=\"plan\" id=\"plan\"><h2>Plan changes</h2>\n<ul>\n"
        for book in changed {
            let name = book.prefix.isEmpty ? "" : XMLText.escape(String(book.prefix.dropLast())) + ": "
            for line in book.comparison.plan { html += "<li>\(name)\(XMLText.escape(line))</li>\n" }
        }
        return html + "</ul></section>\n"
    }

    static func entry(_ result: FileComparison, index: Int, marks: ReportMarks) -> String {
        let state = result.failed ? "fail" : "pass"
        var html = "<section class=\"entry \(state)\" id=\"e\(index)\" tabindex=\"0\" data-status=\"\(result.status.name)\">\n"
        html += "<h2><a href=\"#e\(index)\">\(XMLText.escape(result.name))</a> "
        html += "<span class=\"status \(result.status.name)\">\(result.status.name)</span></h2>\n"
        html += "<p class=\"detail\">\(XMLText.escape(result.explanation))</p>\n"
        html += marks.verdicts
        let pictures = result.pictures ?? FileComparison.Pictures()
        let stacked = pictures.expected != nil && pictures.actual != nil && pictures.expected != pictures.actual
        if stacked { html += ReportViews.modes }
        html += "<div class=\"view side\">\n"
        for (label, path) in [("expected", pictures.expected), ("actual", pictures.actual), ("diff", pictures.diff)] {
            guard let path else { continue }
            html += "<figure><a class=\"frame\" href=\"\(url(path))\"><img loading=\"lazy\" alt=\"\(label)\" src=\"\(url(path))\">"
            html += label == "actual" ? "" : marks.svg
            html += "</a><figcaption>\(label)</figcaption></figure>\n"
        }
        html += "</div>\n"
        if let expected = pictures.expected, let actual = pictures.actual, stacked {
            html += ReportViews.stack(expected: url(expected), actual: url(actual), marks: marks.svg)
        }
        return html + "</section>\n"
    }

    /// A relative URL: each path component percent-encoded.
    static func url(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return path.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0)
        }.joined(separator: "/")
    }

    static func head(title: String, summary: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(XMLText.escape(title))</title>
        <style>
        body { font: 15px/1.4 system-ui, sans-serif; margin: 0 1.5rem 3rem; background: #f6f6f4; color: #222; }
        header { position: sticky; top: 0; background: #f6f6f4; padding: .8rem 0; border-bottom: 1px solid #ccc; }
        h1 { font-size: 1.3rem; margin: 0 0 .3rem; }
        .entry { background: #fff; border: 1px solid #ddd; border-left: 6px solid #3a3; margin: 1rem 0; padding: .6rem 1rem; }
        .entry.fail { border-left-color: #d22; }
        h2 { font-size: 1.05rem; margin: .2rem 0; word-break: break-all; }
        h2 a { color: inherit; text-decoration: none; }
        .status { font-size: .8rem; padding: .1rem .5rem; border-radius: .6rem; background: #3a3; color: #fff; }
        .status.diff, .status.missing, .status.extra, .status.error { background: #d22; }
        .detail { margin: .2rem 0 .5rem; color: #555; }
        .view.side { display: flex; gap: 1rem; flex-wrap: wrap; }
        figure { margin: 0; flex: 1 1 14rem; max-width: 32rem; }
        figure img { max-width: 100%; border: 1px solid #ccc; background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        .entry.pass figure { max-width: 16rem; }
        figcaption { font-size: .85rem; color: #666; }
        \(ReportViews.style)
        </style>
        </head>
        <body>
        <header>
        <h1>\(XMLText.escape(title))</h1>
        <p id="summary">\(XMLText.escape(summary))</p>
        <label><input type="checkbox" id="only-failures"> Show only failures <kbd>f</kbd></label>
        <p class="keys">Keys: <kbd>j</kbd> <kbd>k</kbd> next and previous spread · <kbd>1</kbd>–<kbd>4</kbd> side by side, swipe, onion skin, toggle · <kbd>t</kbd> flip · <kbd>←</kbd> <kbd>→</kbd> move the slider</p>
        </header>
        <main>

        """
    }

    static let tail = """
        </main>
        <script>
        \(ReportViews.script)
        </script>
        </body>
        </html>

        """
}
