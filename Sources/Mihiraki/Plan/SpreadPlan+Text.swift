import MihirakiAnalysis
import MihirakiCore
import MihirakiCodecs

extension SpreadPlan {
    /// `plan`'s text form: one line per spread, such as `[x|1]`.
    public var text: String {
        entries.map { $0.spread.description + "\n" }.joined()
    }

    /// `plan --explain`: where each decision came from, one `#` line each
    /// (`# direction rtl (ComicInfo.xml)`, `# page 7 wide (page size): p7.jpg`).
    public var explanation: String {
        var lines = ["# book \(PathBytes.shown(book.name)): \(pages.count) pages, \(entries.count) spreads"]
        lines.append("# direction \(decisions.direction.rawValue) (\(decisions.directionOrigin.rawValue))")
        lines.append("# cover \(decisions.cover.rawValue) (\(decisions.coverOrigin.rawValue))")
        for page in decisions.wide.keys.sorted() {
            lines.append("# page \(page) wide (\(decisions.wide[page]!.rawValue)): \(pages[page - 1].source)")
        }
        for page in decisions.sides.keys.sorted() {
            let declared = decisions.sides[page]!
            lines.append("# page \(page) on the \(declared.side.rawValue) (\(declared.origin.rawValue)): \(pages[page - 1].source)"
                + (declared.blankBefore ? "; a blank before it puts it there" : ""))
        }
        for source in decisions.deleted { lines.append("# deleted (ComicInfo.xml): \(source)") }
        for first in decisions.declaredSplits.keys.sorted() {
            let declared = decisions.declaredSplits[first]!
            lines.append("# pages \(first)+\(first + 1): one artwork (\(declared.origin.rawValue))"
                + (declared.needsBlank ? "; a blank before page \(first) keeps them together" : ""))
        }
        for seam in decisions.seams {
            let measures = "confidence \(decimal(thousandths: seam.confidence)): "
                + (seam.levelsAlone ? "too little detail at the seam, " : "seam \(decimal(thousandths: seam.score)), ")
                + "levels \(decimal(thousandths: seam.levels)), margin \(decimal(thousandths: seam.margin))"
                + (seam.strips.map { strips in
                    ", paper against ink \(decimal(thousandths: strips.ink))"
                        + (strips.lines.map { ", lines continuing \(decimal(thousandths: $0))" } ?? "")
                        + (strips.steepLines.map { ", steep lines continuing \(decimal(thousandths: $0))" } ?? "")
                        + (strips.borders.map { ", borders continuing \(decimal(thousandths: $0))" } ?? "")
                        + (strips.bordersApart.map { ", borders apart \(decimal(thousandths: $0))" } ?? "")
                        + (strips.edges.map { ", edges continuing \(decimal(thousandths: $0))" } ?? "")
                        + (strips.proportion.map { ", tones out of proportion \(decimal(thousandths: $0))" } ?? "")
                        + (strips.toneRange.map { ", tone range \(decimal(thousandths: $0))" } ?? "")
                        + (strips.tones.map { ", tones unlike \(decimal(thousandths: $0.share)) of \($0.windows) windows" } ?? "")
                } ?? "")
                + (seam.coloursApart.map { ", colours apart \(decimal(thousandths: $0))" } ?? "")
            guard seam.isSplit else {
                lines.append("# pages \(seam.first)+\(seam.second): two pages (\(measures))")
                continue
            }
            var line = "# pages \(seam.first)+\(seam.second): one artwork (\(measures))"
            if seam.needsBlank { line += "; a blank before page \(seam.first) keeps them together" }
            lines.append(line)
        }
        for page in cuts.keys.sorted() {
            let cut = cuts[page]!
            if let split = cut.split {
                lines.append("# page \(page) split at x \(split.x) (\(split.reason), confidence \(decimal(thousandths: split.confidence)))")
            }
            if cut.cropped {
                let leaves: [Leaf] = cut.split == nil ? [.page(page)] : [.half(page, .a), .half(page, .b)]
                for leaf in leaves {
                    let box = cut.box(for: leaf)!
                    lines.append("# page \(leaf.notation) crop [\(box.x), \(box.y), \(box.width), \(box.height)]")
                }
            }
            for note in cut.notes { lines.append("# page \(page) \(note)") }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The manifest of this plan: what `manifest.json` and `plan --json` hold.
    public var manifest: Manifest {
        var manifest = Manifest(book: book.name, canvas: Manifest.Canvas(width: canvas.width, height: canvas.height),
                 layout: options.layout, direction: direction,
                 spreads: entries.map { entry in
                     Manifest.Spread(file: entry.file, slots: entry.slots.map { slot in
                         let rect = slot.rect
                         let page = slot.leaf.pageNumber
                         var placed = Manifest.Slot(side: slot.side.rawValue, page: page,
                                                    source: page.map { pages[$0 - 1].source },
                                                    blank: page == nil ? true : nil,
                                                    rect: [rect.x, rect.y, rect.width, rect.height])
                         if let page {
                             let box = cuts[page]?.box(for: slot.leaf)
                             placed.pageSize = box.map { [$0.width, $0.height] } ?? [headers[page - 1].width, headers[page - 1].height]
                         }
                         if let page, let cut = cuts[page] {
                             if case .half(_, let half) = slot.leaf { placed.half = half.rawValue }
                             placed.split = cut.split.map { Manifest.Split(x: $0.x, confidence: Double($0.confidence) / 1000) }
                             if cut.cropped, let box = cut.box(for: slot.leaf) {
                                 placed.crop = [box.x, box.y, box.width, box.height]
                             }
                         }
                         return placed
                     })
                 })
        manifest.splitWide = options.splitWide
        if options.cropBorders { manifest.cropBorders = Manifest.CropBorders(limit: options.cropLimit) }
        if options.pairing == .auto {
            manifest.pairing = .auto
            manifest.splits = decisions.splitFirstPages.map { [$0, $0 + 1] }
            manifest.seams = decisions.seams.map {
                Manifest.Seam(pages: [$0.first, $0.second], score: Double($0.confidence) / 1000, split: $0.isSplit)
            }
        }
        return manifest
    }
}
