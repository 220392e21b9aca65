import Foundation
import MihirakiTestSupport
import Testing

/// `compare --report` between two renders of a book (SPEC §5b), in Debian's
/// headless Chromium: the plan's changes on top, boxes where pages changed,
/// and the four views driven by keyboard, with nothing fetched from a network.
@Suite("Command line: the page-by-page report in a browser", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct CompareReportBrowserTests {
    @Test("Plan changes first; a box on the recoloured page; side by side, swipe, onion skin and toggle by keys; j, k and f")
    func reportByKeyboard() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = try CompareBooksCLITests.book(folder, "book")
        let expected = try CompareBooksCLITests.render(book, folder.path + "/a")
        // Page 5 recoloured, and a blank before page 12: a page change and a plan change.
        try folder.write("book/p5.png", try CompareBooksCLITests.page(5, patch: true))
        let actual = try CompareBooksCLITests.render(book, folder.path + "/b", ["--blank-before", "12"])
        let report = folder.path + "/report"
        let run = try mihiraki(["compare", expected, actual, "--report", report])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let html = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
        // Offline: every picture, script and style is in the folder.
        #expect(!html.contains("http://") && !html.contains("https://"))
        let entry = "document.querySelector('.entry')"
        let steps: [[String: Any]] = [
            ["window": [1200, 900]],
            ["open": "file://" + report + "/index.html"],
            ["eval": """
                ({ first: document.querySelector('main').firstElementChild.id,
                   plan: [...document.querySelectorAll('#plan li')].map(li => li.textContent),
                   entry: \(entry).querySelector('h2 a').textContent,
                   verdicts: [...\(entry).querySelectorAll('.verdicts li')].map(li => li.textContent),
                   boxes: [...\(entry).querySelectorAll('.view.side .marks rect')].map(r => r.getAttribute('class')),
                   box: (() => { const r = \(entry).querySelector('.marks rect'); return r ? [r.x.baseVal.value, r.y.baseVal.value, r.width.baseVal.value, r.height.baseVal.value] : null; })(),
                   side: \(entry).querySelector('.view.side').offsetHeight > 0,
                   stacked: \(entry).querySelector('.view.stacked').offsetHeight })
                """],
            ["key": "2"], ["key": "ArrowRight"],
            // Shown, so its pictures load: both laid at full size, one on the other.
            ["wait": "[...\(entry).querySelectorAll('.stack img')].every(i => i.complete && i.naturalWidth > 0)"],
            ["eval": "({ mode: \(entry).dataset.mode, stacked: \(entry).querySelector('.stack').offsetWidth === \(entry).querySelector('.stack img').naturalWidth, side: \(entry).querySelector('.view.side').offsetHeight > 0, slider: \(entry).querySelector('.slider').value, clip: \(entry).querySelector('.top').style.clipPath })"],
            ["key": "3"], ["key": "ArrowLeft"], ["key": "ArrowLeft"],
            ["eval": "({ mode: \(entry).dataset.mode, opacity: \(entry).querySelector('.top').style.opacity, clip: \(entry).querySelector('.top').style.clipPath })"],
            ["key": "t"],
            ["eval": "({ mode: \(entry).dataset.mode, visibility: \(entry).querySelector('.top').style.visibility, showing: \(entry).querySelector('.showing').textContent, pressed: \(entry).querySelector('.modes [aria-pressed=true]').dataset.mode })"],
            ["key": "t"],
            ["eval": "\(entry).querySelector('.top').style.visibility"],
            ["key": "1"],
            ["eval": "\(entry).querySelector('.view.side').offsetHeight > 0 && \(entry).querySelector('.view.stacked').offsetHeight === 0"],
            ["key": "j"], ["key": "j"], ["key": "k"],
            ["eval": "document.activeElement.id"],
            ["key": "f"],
            ["eval": "[...document.querySelectorAll('.entry')].filter(e => !e.hidden).every(e => e.classList.contains('fail'))"],
        ]
        let profile = folder.path + "/chromium"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let drive = try runTool("/usr/bin/python3", [Fixtures.packageRoot.path + "/Tests/browser/drive.py", profile, json])
        try #require(drive.status == 0, "\(drive.stderr)")
        let states = try #require(try JSONSerialization.jsonObject(with: Data(drive.stdout.utf8)) as? [Any])
        try #require(states.count == 8, "\(drive.stdout)")
        let first = try #require(states[0] as? [String: Any])
        #expect(first["first"] as? String == "plan")
        #expect(first["plan"] as? [String] == ["page 12: spread 7 left → spread 7 right"], "\(first)")
        // Failures first: spread 3, where page 5 changed, with its verdict and one box around the patch.
        #expect(first["entry"] as? String == "spread-003.png", "\(first)")
        let verdicts = first["verdicts"] as? [String] ?? []
        #expect(verdicts.count == 1 && verdicts.first?.hasPrefix("page 5, spread-003.png right: changed") == true, "\(verdicts)")
        #expect(first["boxes"] as? [String] == ["changed", "changed"], "on expected and on the diff: \(first)")
        let box = first["box"] as? [Double] ?? []
        #expect(box.count == 4 && box[2] == 40 && box[3] == 40, "\(box)")
        #expect(first["side"] as? Bool == true && first["stacked"] as? Int == 0, "\(first)")
        let swipe = try #require(states[1] as? [String: Any])
        #expect(swipe["mode"] as? String == "swipe" && swipe["stacked"] as? Bool == true && swipe["side"] as? Bool == false)
        #expect(swipe["slider"] as? String == "60" && swipe["clip"] as? String == "inset(0px 0px 0px 40%)", "\(swipe)")
        let onion = try #require(states[2] as? [String: Any])
        #expect(onion["mode"] as? String == "onion" && onion["opacity"] as? String == "0.4" && onion["clip"] as? String == "none", "\(onion)")
        let toggle = try #require(states[3] as? [String: Any])
        #expect(toggle["mode"] as? String == "toggle" && toggle["visibility"] as? String == "hidden", "\(toggle)")
        #expect(toggle["showing"] as? String == "showing expected" && toggle["pressed"] as? String == "toggle", "\(toggle)")
        #expect(states[4] as? String == "visible")
        #expect(states[5] as? Bool == true)
        #expect(states[6] as? String == "e1", "j, j, k: the second entry")
        #expect(states[7] as? Bool == true, "f shows only failures")
    }
}
