import MihirakiCore

/// What the report draws on one spread from its book's comparison: a box
/// around each changed region and around each page slot that moved, was
/// swapped, added or removed, over the expected picture's canvas, and the
/// slots' verdict lines.
struct ReportMarks {
    var canvas: Manifest.Canvas?
    var boxes: [(kind: String, title: String, rect: PixelRect)] = []
    var lines: [String] = []

    init(books: [(prefix: String, comparison: BookComparison)], file: String) {
        guard let book = books.first(where: { file.hasPrefix($0.prefix) && !file.dropFirst($0.prefix.count).contains("/") })
        else { return }
        let name = String(file.dropFirst(book.prefix.count))
        canvas = book.comparison.canvas
        for slot in book.comparison.slots where slot.file == name && slot.verdict != .same {
            lines.append(slot.line)
            if slot.verdict == .changed && !slot.regions.isEmpty {
                boxes += slot.regions.map { ("changed", slot.line, $0.canvas) }
            } else if let rect = slot.rect {
                boxes.append((slot.verdict.rawValue, slot.line, rect))
            }
        }
    }

    /// The slots' verdicts as a list, when any is not `same`.
    var verdicts: String {
        guard !lines.isEmpty else { return "" }
        return "<ul class=\"verdicts\">" + lines.map { "<li>\(XMLText.escape($0))</li>" }.joined() + "</ul>\n"
    }

    /// The boxes as an SVG laid over a picture of the canvas's size.
    var svg: String {
        guard let canvas, !boxes.isEmpty else { return "" }
        var svg = "<svg class=\"marks\" viewBox=\"0 0 \(canvas.width) \(canvas.height)\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"what changed\">"
        for box in boxes {
            svg += "<rect class=\"\(box.kind)\" x=\"\(box.rect.x)\" y=\"\(box.rect.y)\" width=\"\(box.rect.width)\" height=\"\(box.rect.height)\">"
            svg += "<title>\(XMLText.escape(box.title))</title></rect>"
        }
        return svg + "</svg>"
    }
}

/// The report's four views of expected against actual — side by side,
/// swipe, onion skin and toggle — their style and their script.
enum ReportViews {
    static let modes = """
        <p class="modes" role="group" aria-label="view">\
        <button type="button" data-mode="side" aria-pressed="true">Side by side <kbd>1</kbd></button> \
        <button type="button" data-mode="swipe" aria-pressed="false">Swipe <kbd>2</kbd></button> \
        <button type="button" data-mode="onion" aria-pressed="false">Onion skin <kbd>3</kbd></button> \
        <button type="button" data-mode="toggle" aria-pressed="false">Toggle <kbd>4</kbd></button></p>

        """

    /// Actual laid on expected at full size, with the slider and the flip button.
    static func stack(expected: String, actual: String, marks: String) -> String {
        """
        <div class="view stacked" hidden>
        <p class="controls"><label><span class="from">expected</span> <input class="slider" type="range" min="0" max="100" value="50" \
        aria-label="expected to actual"> <span class="to">actual</span></label> \
        <button class="flip" type="button">Flip <kbd>t</kbd></button> <span class="showing" aria-live="polite"></span></p>
        <div class="stack swipe"><img loading="lazy" alt="expected, full size" src="\(expected)">\
        <img class="top" loading="lazy" alt="actual, full size" src="\(actual)">\(marks)</div>
        </div>

        """
    }

    static let style = """
        [hidden] { display: none !important; }
        .frame { position: relative; display: inline-block; max-width: 100%; }
        .frame img { display: block; }
        .marks { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
        .marks rect { fill: none; stroke: #e0f; stroke-width: 2px; vector-effect: non-scaling-stroke; }
        .marks rect.moved, .marks rect.swapped, .marks rect.added, .marks rect.removed { stroke: #f80; stroke-dasharray: 6 3; }
        .verdicts { margin: .2rem 0 .5rem; padding-left: 1.2rem; color: #333; }
        .plan { background: #fff8e0; border: 1px solid #e8d48a; margin: 1rem 0; padding: .4rem 1rem; }
        .modes button[aria-pressed="true"] { background: #234; color: #fff; }
        .keys { font-size: .85rem; color: #666; margin: .2rem 0 0; }
        kbd { font: .75rem monospace; border: 1px solid #bbb; border-radius: 3px; padding: 0 .25rem; background: #fafafa; color: #333; }
        .entry:focus { outline: 3px solid #48c; }
        .stack { position: relative; display: inline-block; max-width: 100%; overflow: auto; }
        .stack img { display: block; }
        .stack img.top { position: absolute; left: 0; top: 0; }
        """

    /// The filter, the view switch, the slider and the keys. An entry is
    /// the one with focus (j and k move it), or the first.
    static let script = """
        const only = document.getElementById('only-failures');
        function filter() {
          for (const entry of document.querySelectorAll('.entry.pass')) entry.hidden = only.checked;
        }
        only.addEventListener('change', filter);
        if (location.hash === '#failures') only.checked = true;
        filter();
        // Swipe uncovers actual from the right as the slider goes right; onion
        // skin fades it in; toggle shows one whole, then the other.
        function show(entry) {
          const view = entry.querySelector('.view.stacked');
          if (!view) return;
          const mode = entry.dataset.mode || 'side', value = view.querySelector('.slider').value;
          const top = view.querySelector('.top'), stack = view.querySelector('.stack');
          stack.className = 'stack ' + mode;
          top.style.clipPath = mode === 'swipe' ? 'inset(0 0 0 ' + (100 - value) + '%)' : 'none';
          top.style.opacity = mode === 'onion' ? value / 100 : 1;
          top.style.visibility = mode === 'toggle' && entry.dataset.flipped === 'expected' ? 'hidden' : 'visible';
          view.querySelector('.slider').disabled = mode === 'toggle';
          view.querySelector('.showing').textContent = mode === 'toggle'
            ? 'showing ' + (entry.dataset.flipped === 'expected' ? 'expected' : 'actual') : '';
        }
        function setMode(entry, mode) {
          if (!entry.querySelector('.view.stacked')) return;
          entry.dataset.mode = mode;
          entry.querySelector('.view.side').hidden = mode !== 'side';
          entry.querySelector('.view.stacked').hidden = mode === 'side';
          for (const button of entry.querySelectorAll('.modes button')) {
            button.setAttribute('aria-pressed', String(button.dataset.mode === mode));
          }
          show(entry);
        }
        function flip(entry) {
          if (entry.dataset.mode !== 'toggle') setMode(entry, 'toggle');
          entry.dataset.flipped = entry.dataset.flipped === 'expected' ? 'actual' : 'expected';
          show(entry);
        }
        for (const entry of document.querySelectorAll('.entry')) {
          for (const button of entry.querySelectorAll('.modes button')) {
            button.addEventListener('click', () => setMode(entry, button.dataset.mode));
          }
          const slider = entry.querySelector('.slider');
          if (slider) slider.addEventListener('input', () => show(entry));
          const button = entry.querySelector('.flip');
          if (button) button.addEventListener('click', () => flip(entry));
        }
        function current() {
          const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('.entry');
          return focused || document.querySelector('.entry:not([hidden])');
        }
        function move(step) {
          const entries = [...document.querySelectorAll('.entry:not([hidden])')];
          const at = entries.indexOf(current());
          const next = entries[Math.max(0, Math.min(entries.length - 1, at + step))];
          if (next) { next.focus(); next.scrollIntoView({ block: 'start' }); }
        }
        const modes = { '1': 'side', '2': 'swipe', '3': 'onion', '4': 'toggle' };
        document.addEventListener('keydown', (event) => {
          if (event.ctrlKey || event.metaKey || event.altKey) return;
          const entry = current();
          const onSlider = document.activeElement && document.activeElement.classList.contains('slider');
          if (event.key === 'j') move(1);
          else if (event.key === 'k') move(-1);
          else if (event.key === 'f') { only.checked = !only.checked; filter(); }
          else if (entry && modes[event.key]) setMode(entry, modes[event.key]);
          else if (entry && event.key === 't') flip(entry);
          else if (entry && !onSlider && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
            const slider = entry.querySelector('.slider');
            if (!slider || entry.querySelector('.view.stacked').hidden) return;
            slider.value = Number(slider.value) + (event.key === 'ArrowRight' ? 10 : -10);
            show(entry);
          } else return;
          event.preventDefault();
        });
        """
}
