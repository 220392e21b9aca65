import Foundation

extension ImageComparator {
    /// Writes `folder/index.html`: a page a person opens from disk after a
    /// failing run. A summary, then one entry per file — failures first — with
    /// the expected, actual and diff pictures side by side and a full-size view
    /// that slides or flips between expected and actual; a switch shows only
    /// the failures. No network fetch, no build step: plain HTML, CSS and a
    /// few lines of script. The pictures are the ones the comparisons put in
    /// the folder (``Options/reportFolder``).
    ///
    /// - Parameters:
    ///   - results: the comparisons, in their natural order.
    ///   - folder: the report folder.
    ///   - title: the page's heading, such as the command that was run.
    /// - Throws: ``MihirakiError`` when the page cannot be written.
    public static func writeReport(_ results: [FileComparison], to folder: String, title: String) throws {
        try FileSystem.makeDirectories(folder)
        let ordered = results.filter(\.failed) + results.filter { !$0.failed }
        var html = ReportPage.head(title: title, summary: ReportPage.summary(results))
        for (index, result) in ordered.enumerated() { html += ReportPage.entry(result, index: index) }
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

    static func entry(_ result: FileComparison, index: Int) -> String {
        let state = result.failed ? "fail" : "pass"
        var html = "<section class=\"entry \(state)\" id=\"e\(index)\" data-status=\"\(result.status.name)\">\n"
        html += "<h2><a href=\"#e\(index)\">\(XMLText.escape(result.name))</a> "
        html += "<span class=\"status \(result.status.name)\">\(result.status.name)</span></h2>\n"
        html += "<p class=\"detail\">\(XMLText.escape(result.explanation))</p>\n"
        let pictures = result.pictures ?? FileComparison.Pictures()
        html += "<div class=\"views\">\n"
        for (label, path) in [("expected", pictures.expected), ("actual", pictures.actual), ("diff", pictures.diff)] {
            guard let path else { continue }
            html += "<figure><a href=\"\(url(path))\"><img loading=\"lazy\" alt=\"\(label)\" src=\"\(url(path))\"></a>"
            html += "<figcaption>\(label)</figcaption></figure>\n"
        }
        html += "</div>\n"
        if let expected = pictures.expected, let actual = pictures.actual, expected != actual {
            html += """
                <details class="compare"><summary>Full size: slide or flip between expected and actual</summary>
                <p><label>expected <input class="slider" type="range" min="0" max="100" value="50"> actual</label>
                <button class="flip" type="button">Flip</button></p>
                <div class="stack"><img loading="lazy" alt="expected, full size" src="\(url(expected))">\
                <img class="top" loading="lazy" alt="actual, full size" src="\(url(actual))"></div>
                </details>

                """
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
        .views { display: flex; gap: 1rem; flex-wrap: wrap; }
        figure { margin: 0; flex: 1 1 14rem; max-width: 32rem; }
        figure img { max-width: 100%; border: 1px solid #ccc; background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        .entry.pass figure { max-width: 16rem; }
        figcaption { font-size: .85rem; color: #666; }
        .stack { position: relative; display: inline-block; max-width: 100%; overflow: auto; }
        .stack img { display: block; }
        .stack img.top { position: absolute; left: 0; top: 0; clip-path: inset(0 0 0 50%); }
        </style>
        </head>
        <body>
        <header>
        <h1>\(XMLText.escape(title))</h1>
        <p id="summary">\(XMLText.escape(summary))</p>
        <label><input type="checkbox" id="only-failures"> Show only failures</label>
        </header>
        <main>

        """
    }

    static let tail = """
        </main>
        <script>
        const only = document.getElementById('only-failures');
        function filter() {
          for (const entry of document.querySelectorAll('.entry.pass')) entry.hidden = only.checked;
        }
        only.addEventListener('change', filter);
        if (location.hash === '#failures') only.checked = true;
        filter();
        // The actual picture lies on the expected one; the slider uncovers it
        // from the right, Flip shows one whole, then the other.
        function slide(compare) {
          const slider = compare.querySelector('.slider');
          compare.querySelector('.top').style.clipPath = 'inset(0 0 0 ' + slider.value + '%)';
        }
        for (const compare of document.querySelectorAll('.compare')) {
          const slider = compare.querySelector('.slider');
          slider.addEventListener('input', () => slide(compare));
          compare.querySelector('.flip').addEventListener('click', () => {
            slider.value = slider.value === '0' ? '100' : '0';
            slide(compare);
          });
        }
        </script>
        </body>
        </html>

        """
}
