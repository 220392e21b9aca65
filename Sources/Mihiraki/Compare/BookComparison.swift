import MihirakiCore
import MihirakiRaster

/// Two renders of one book compared through their manifests (SPEC §5b):
/// first what changed in the plan (canvas, layout, direction, spread count,
/// every page that changed place), then a verdict per page, wherever each
/// side drew it, and one for the background and blanks of each spread.
/// A direction change mirrors every spread, so pages that only changed
/// side with it are not moved; a blank inserted before page 12 is one line.
package struct BookComparison: Sendable {
    /// What a page slot's content did between the two renders.
    package enum Verdict: String, Sendable {
        case same, moved, changed, swapped, added, removed
    }

    /// One page slot (or a spread's background, `page` nil) and its verdict.
    package struct Slot: Sendable {
        package var page: Int?
        package var file: String
        package var side: String
        package var verdict: Verdict
        /// The content's displacement from expected to actual, right and down positive.
        package var shift: (dx: Int, dy: Int)?
        /// For `swapped`: the page whose expected content this slot now shows.
        package var swappedWith: Int?
        package var differingPixels = 0
        /// Each region that differs, in the expected page's pixels and in canvas pixels.
        package var regions: [(page: PixelRect, canvas: PixelRect)] = []
        /// Where the expected side drew the page (the actual side's for an added page), in canvas pixels.
        package var rect: PixelRect?

        /// Whether the verdict passes: the same, or moved within the tolerance.
        package var passes: Bool { verdict == .same || verdict == .moved }

        /// The text line (`page 5, spread-003.png left: changed, 1479 px …`).
        package var line: String {
            let place = (page.map { "page \($0), " } ?? "background, ") + file + (page == nil ? "" : " " + side)
            switch verdict {
            case .same: return "\(place): same"
            case .moved: return "\(place): moved (\(shift?.dx ?? 0), \(shift?.dy ?? 0))"
            case .added, .removed: return "\(place): \(verdict.rawValue)"
            case .swapped: return "\(place): swapped, shows page \(swappedWith ?? 0)"
            case .changed:
                let boxes = regions.prefix(4).map { "page \(Self.box($0.page)), canvas \(Self.box($0.canvas))" }
                let more = regions.count > 4 ? " and \(regions.count - 4) more" : ""
                return "\(place): changed, \(differingPixels) px" + (boxes.isEmpty ? "" : " in " + boxes.joined(separator: "; ") + more)
            }
        }

        static func box(_ r: PixelRect) -> String { "[\(r.x), \(r.y), \(r.width), \(r.height)]" }
    }

    /// The plan's changes, one line each, in words.
    package var plan: [String] { difference.lines }
    /// The plan's changes as they are listed in JSON.
    let difference: PlanDifference
    /// Every slot compared: pages in page order, then each spread's background.
    package var slots: [Slot]
    /// The expected side's canvas, which region boxes and slot rectangles are in.
    package var canvas: Manifest.Canvas

    /// Whether the two renders agree: no plan change, and every slot passes.
    package var ok: Bool { plan.isEmpty && slots.allSatisfy(\.passes) }

    /// The text `compare` prints: the plan lines, then each slot that is not `same`.
    package var lines: [String] { plan + slots.filter { $0.verdict != .same }.map(\.line) }

    /// JUnit's test cases (SPEC §5b): `BOOK/plan`, then one per page slot,
    /// `BOOK/spread-007/page-14` (`…/background` for a spread's background).
    package func testCases(book: String) -> [FileComparison] {
        var cases = [FileComparison(name: book + "/plan", status: plan.isEmpty ? .ok : .diff,
                                    detail: plan.isEmpty ? nil : plan.joined(separator: "; "))]
        for slot in slots {
            let spread = slot.file.split(separator: ".").first.map(String.init) ?? slot.file
            let name = book + "/" + spread + "/" + (slot.page.map { "page-\($0)" } ?? "background")
            cases.append(FileComparison(name: name, status: slot.passes ? .ok : .diff, differingPixels: slot.differingPixels,
                                        detail: slot.passes ? nil : slot.line))
        }
        return cases
    }
}

extension BookComparison {
    /// The `--shift-tolerance` values, in pixels: a registration search tries
    /// (2N + 1)² shifts of each changed page.
    package static let shiftTolerances = 0...16

    /// Refuses a shift tolerance outside ``shiftTolerances``, as the command line and the C ABI do.
    package static func check(shiftTolerance: Int) throws {
        guard shiftTolerances.contains(shiftTolerance) else {
            throw MihirakiError(.usage, "--shift-tolerance must be from \(shiftTolerances.lowerBound) to \(shiftTolerances.upperBound)")
        }
    }

    /// Compares two book folders `render` wrote (each with `manifest.json`),
    /// or returns nil when either has no manifest Mihiraki reads.
    /// - Throws: ``MihirakiError`` naming a spread file a manifest lists
    ///   that is missing or unreadable.
    package static func compare(expected: String, actual: String, options: ImageComparator.Options,
                                shiftTolerance: Int = 2) throws -> BookComparison? {
        guard let was = try? Manifest(json: FileSystem.read(expected + "/manifest.json")),
              let now = try? Manifest(json: FileSystem.read(actual + "/manifest.json")) else { return nil }
        let expectedFiles = SpreadImages.files(in: expected)
        // A spread whose two files hold the same bytes is the same without decoding either.
        let sameBytes = Set(was.spreads.map(\.file).filter { name in
            guard let a = try? FileSystem.read(expected + "/" + name), let b = try? FileSystem.read(actual + "/" + name) else {
                return false
            }
            return a == b
        })
        return try compare(was: was, now: now, expected: { name in
            guard let image = try expectedFiles(name) else {
                throw MihirakiError(.badBook, path: expected + "/" + name, "listed in its manifest, but missing")
            }
            return image
        }, actual: SpreadImages.files(in: actual), knownSame: sameBytes, options: options, shiftTolerance: shiftTolerance)
    }

    /// Compares two renders of a book given their manifests and their
    /// spreads by file name: the expected side's (which must exist) and the
    /// actual side's (nil when it has no such file). `knownSame` names
    /// spreads already found to hold the same pixels on both sides.
    package static func compare(was: Manifest, now: Manifest, expected: @escaping (String) throws -> PixelBuffer,
                                actual: @escaping (String) throws -> PixelBuffer?, knownSame: Set<String> = [],
                                options: ImageComparator.Options, shiftTolerance: Int = 2) throws -> BookComparison {
        let difference = PlanDifference(was: was, now: now)
        var images = SpreadImages(expected: expected, actual: actual)
        for file in knownSame { images.unchangedFiles[file] = true }
        var slots: [Slot] = []
        // The crops of pages that changed, to find those that show another page's content.
        var changed: [(index: Int, expected: PixelBuffer, actual: PixelBuffer)] = []
        let placesWas = difference.before, placesNow = difference.after
        for key in PlanDifference.order(placesWas, placesNow) {
            guard let a = placesWas[key] else {
                let b = placesNow[key]!
                slots.append(Slot(page: b.page, file: now.spreads[b.spread].file, side: b.side, verdict: .added, rect: b.rect))
                continue
            }
            let spreadWas = was.spreads[a.spread]
            guard let b = placesNow[key] else {
                slots.append(Slot(page: a.page, file: spreadWas.file, side: a.side, verdict: .removed, rect: a.rect))
                continue
            }
            let spreadNow = now.spreads[b.spread]
            // Drawn in the same place of a file whose pixels did not change: the same, nothing to crop.
            let samePlace = spreadWas.file == spreadNow.file && a.rect == b.rect
            if try samePlace && images.unchanged(spreadWas.file) {
                slots.append(Slot(page: a.page, file: spreadNow.file, side: b.side, verdict: .same, rect: a.rect))
                continue
            }
            let crops = try (images.expected(spreadWas.file).cropped(to: a.rect),
                             images.actual(spreadNow.file).cropped(to: b.rect))
            var slot = SlotMatch.judge(expected: crops.0, actual: crops.1, options: options, tolerance: shiftTolerance)
            slot.page = a.page
            slot.file = spreadNow.file
            slot.side = b.side
            slot.rect = a.rect
            slot.regions = slot.regions.map { (Self.inPage($0.page, drawn: a.rect, size: a.pageSize), $0.page.offset(by: a.rect)) }
            if slot.verdict == .changed { changed.append((slots.count, crops.0, crops.1)) }
            slots.append(slot)
        }
        // A changed page whose content is another changed page's expected content: swapped.
        for one in changed {
            for other in changed where other.index != one.index && other.expected.width == one.actual.width
                && other.expected.height == one.actual.height {
                guard SlotMatch.withinBudget(PixelMatch.compare(other.expected, one.actual, options: options.pixel).differing,
                                             of: one.actual, options) else { continue }
                slots[one.index].verdict = .swapped
                slots[one.index].swappedWith = slots[other.index].page
                slots[one.index].regions = []
                break
            }
        }
        // The background and blanks of each spread both sides have, where the canvas is the same.
        if was.canvas == now.canvas {
            let filesNow = Set(now.spreads.map(\.file))
            for spread in was.spreads where filesNow.contains(spread.file) {
                let other = now.spreads.first { $0.file == spread.file }!
                let covered = (spread.slots + other.slots).filter { $0.page != nil }.map(\.rect)
                if try images.unchanged(spread.file) {
                    slots.append(Slot(page: nil, file: spread.file, side: "background", verdict: .same))
                    continue
                }
                var slot = try SlotMatch.background(expected: images.expected(spread.file), actual: images.actual(spread.file),
                                                    pages: covered, options: options)
                slot.file = spread.file
                slots.append(slot)
            }
        }
        return BookComparison(difference: difference, slots: slots, canvas: was.canvas)
    }

    /// A box in a slot drawn at `drawn`'s size, in the pixels of the page it
    /// was drawn from (`pageSize`; the slot's own without it), covering every
    /// page pixel the box touches.
    static func inPage(_ box: PixelRect, drawn: PixelRect, size: [Int]?) -> PixelRect {
        guard let size, size.count == 2, size[0] > 0, size[1] > 0, drawn.width > 0, drawn.height > 0 else { return box }
        func span(_ start: Int, _ length: Int, _ page: Int, _ slot: Int) -> (Int, Int) {
            let from = start * page / slot, to = min(page, ((start + length) * page + slot - 1) / slot)
            return (from, max(1, to - from))
        }
        let (x, width) = span(box.x, box.width, size[0], drawn.width)
        let (y, height) = span(box.y, box.height, size[1], drawn.height)
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}

/// Each side's spread files, decoded once; as straight RGBA (for cropping
/// and comparing pages) only when a spread's pixels changed.
private struct SpreadImages {
    let loadExpected: (String) throws -> PixelBuffer
    let loadActual: (String) throws -> PixelBuffer?
    var decoded: [String: PixelBuffer] = [:]
    var straight: [String: PixelBuffer] = [:]
    var unchangedFiles: [String: Bool] = [:]

    init(expected: @escaping (String) throws -> PixelBuffer, actual: @escaping (String) throws -> PixelBuffer?) {
        loadExpected = expected
        loadActual = actual
    }

    /// A book folder's spread files by name; nil for one that is missing.
    static func files(in folder: String) -> (String) throws -> PixelBuffer? {
        { name in
            let path = folder + "/" + name
            return FileSystem.kind(path) == .file ? try ImageComparator.load(path) : nil
        }
    }

    mutating func expected(_ file: String) throws -> PixelBuffer { try rgba("expected/" + file) }
    mutating func actual(_ file: String) throws -> PixelBuffer { try rgba("actual/" + file) }

    /// Whether spread `file` holds the same pixels on both sides (as decoded: no conversion needed to tell).
    mutating func unchanged(_ file: String) throws -> Bool {
        if let known = unchangedFiles[file] { return known }
        guard let b = try load("actual/" + file) else { return false }
        let a = try load("expected/" + file)!
        let same = a.width == b.width && a.height == b.height && a.channels == b.channels && a.pixels == b.pixels
        unchangedFiles[file] = same
        return same
    }

    private mutating func rgba(_ key: String) throws -> PixelBuffer {
        if let image = straight[key] { return image }
        guard let image = try load(key)?.straightRGBA else {
            throw MihirakiError(.badBook, path: String(key.dropFirst("actual/".count)), "missing on the actual side")
        }
        straight[key] = image
        return image
    }

    /// A side's spread by key (`expected/NAME` or `actual/NAME`), decoded once.
    private mutating func load(_ key: String) throws -> PixelBuffer? {
        if let image = decoded[key] { return image }
        let name = String(key.drop { $0 != "/" }.dropFirst())
        guard let image = key.hasPrefix("expected/") ? try loadExpected(name) : try loadActual(name) else { return nil }
        decoded[key] = image
        return image
    }
}
