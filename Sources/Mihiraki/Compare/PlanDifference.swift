import MihirakiCore

/// What changed between two manifests' plans, in words (SPEC §5b, "Plan
/// changes"): canvas, layout, direction, spread count, then every page that
/// changed place, consecutive pages that moved the same way on one line
/// (`pages 12–20: one slot later`). A direction change mirrors every
/// spread: a page that only changed side with it has not moved.
struct PlanDifference {
    /// Where a page is drawn: its number, its spread (0-based), side and rectangle.
    struct Place: Equatable {
        var page: Int
        var spread: Int
        var side: String
        var rect: PixelRect
        /// The pixels the page was drawn from, when the manifest says.
        var pageSize: [Int]?
    }

    /// One change, as `compare --json` lists it.
    enum Change {
        /// `canvas`, `layout`, `direction` or `spreads`, with each side's value.
        case option(String, was: String, now: String)
        /// A page in another place, or only on one side (`was` or `now` nil).
        case page(Int, was: Place?, now: Place?)
    }

    let lines: [String]
    let changes: [Change]
    /// Each side's pages by what identifies them (``places(_:)``).
    let before: [String: Place], after: [String: Place]

    init(was: Manifest, now: Manifest) {
        var lines: [String] = [], changes: [Change] = []
        func option(_ name: String, _ a: String, _ b: String) {
            guard a != b else { return }
            lines.append("\(name) \(a) → \(b)")
            changes.append(.option(name, was: a, now: b))
        }
        option("canvas", was.canvas.text, now.canvas.text)
        option("layout", was.layout.rawValue, now.layout.rawValue)
        option("direction", was.direction.rawValue, now.direction.rawValue)
        option("spreads", String(was.spreads.count), String(now.spreads.count))
        let before = Self.places(was), after = Self.places(now)
        (self.before, self.after) = (before, after)
        // Each page's place in reading order: a spread's first-read side counts first.
        func position(_ place: Place, _ direction: ReadingDirection) -> Int {
            let first = direction == .ltr ? "left" : "right"
            return 2 * place.spread + (place.side == first || place.side == "wide" || place.side == "single" ? 0 : 1)
        }
        func words(_ place: Place) -> String { "spread \(place.spread + 1) \(place.side)" }
        var moves: [(page: Int, delta: Int, text: String)] = []
        for key in Self.order(before, after) where before[key] != nil && after[key] != nil {
            let a = before[key]!, b = after[key]!
            let mirrored = was.direction != now.direction ? Self.mirrored(a.side) : a.side
            guard a.spread != b.spread || mirrored != b.side else { continue }
            moves.append((a.page, position(b, now.direction) - position(a, was.direction),
                          "\(words(a)) → \(words(b))"))
            changes.append(.page(a.page, was: a, now: b))
        }
        lines += Self.grouped(moves.map { ($0.page, $0.delta, $0.text) }) { delta in
            let slots = abs(delta) == 1 ? "one slot" : "\(abs(delta)) slots"
            return delta > 0 ? "\(slots) later" : delta < 0 ? "\(slots) earlier" : "another side"
        }
        let added = Self.order(before, after).filter { before[$0] == nil }.map { after[$0]!.page }
        let removed = Self.order(before, after).filter { after[$0] == nil }.map { before[$0]!.page }
        lines += Self.grouped(removed.map { ($0, 0, "removed") }) { _ in "removed" }
        lines += Self.grouped(added.map { ($0, 0, "added") }) { _ in "added" }
        for key in Self.order(before, after) where before[key] == nil || after[key] == nil {
            changes.append(.page(before[key]?.page ?? after[key]!.page, was: before[key], now: after[key]))
        }
        self.lines = lines
        self.changes = changes
    }

    /// The changes as `compare --json` writes them (SPEC §5b).
    func write(to json: JSONWriter) {
        json.array {
            for change in changes {
                json.object(inline: true) {
                    switch change {
                    case .option(let name, let a, let b):
                        json.key("change"); json.string(name)
                        json.key("was"); json.string(a)
                        json.key("now"); json.string(b)
                    case .page(let page, let a, let b):
                        json.key("page"); json.number(page)
                        for (key, place) in [("was", a), ("now", b)] {
                            json.key(key)
                            if let place {
                                json.object(inline: true) {
                                    json.key("spread"); json.number(place.spread + 1)
                                    json.key("side"); json.string(place.side)
                                }
                            } else {
                                json.null()
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every page a manifest draws, by what identifies it on both sides:
    /// its source (a file's name in the book), else its number; where it is
    /// drawn (a split page's first half).
    static func places(_ manifest: Manifest) -> [String: Place] {
        var places: [String: Place] = [:]
        for (index, spread) in manifest.spreads.enumerated() {
            for slot in spread.slots {
                guard let page = slot.page, slot.rect.count == 4 else { continue }
                let key = slot.source ?? "#\(page)"
                guard places[key] == nil else { continue }
                places[key] = Place(page: page, spread: index, side: slot.side,
                                    rect: PixelRect(x: slot.rect[0], y: slot.rect[1], width: slot.rect[2], height: slot.rect[3]),
                                    pageSize: slot.pageSize)
            }
        }
        return places
    }

    /// The pages of both sides in page order: the expected side's, then those only the actual side has.
    static func order(_ before: [String: Place], _ after: [String: Place]) -> [String] {
        before.keys.sorted { before[$0]!.page < before[$1]!.page }
            + after.keys.filter { before[$0] == nil }.sorted { after[$0]!.page < after[$1]!.page }
    }

    static func mirrored(_ side: String) -> String { side == "left" ? "right" : side == "right" ? "left" : side }

    /// One line per run of consecutive pages that changed the same way
    /// (`pages 5–12: one slot later`), a page alone in its own words.
    static func grouped(_ items: [(page: Int, delta: Int, text: String)], run: (Int) -> String) -> [String] {
        var lines: [String] = [], start = 0
        while start < items.count {
            var end = start
            while end + 1 < items.count && items[end + 1].page == items[end].page + 1 && items[end + 1].delta == items[start].delta {
                end += 1
            }
            lines.append(end == start ? "page \(items[start].page): \(items[start].text)"
                         : "pages \(items[start].page)–\(items[end].page): \(run(items[start].delta))")
            start = end + 1
        }
        return lines
    }
}
