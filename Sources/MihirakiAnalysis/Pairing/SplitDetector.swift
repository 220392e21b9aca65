import MihirakiRaster
import MihirakiCodecs
import MihirakiCore

/// Finds splits in a book from its pages' edges: a pure function of the
/// edges, the direction, the threshold and the pages that may take part.
///
/// Each seam (two consecutive pages that may form a split) is judged by two
/// measures of its facing edges: ``SeamScore/score(_:_:maxShift:)``, whether
/// their details fall at the same heights (the better of the fine scale and
/// the coarse scale, ``SeamScore/Edge``; their mean where nearly all the
/// panel borders at the spine continue, ``sharedBorders``), and ``SeamScore/levels(_:_:)`` of
/// their ``SeamScore/ranks(_:)`` at the coarse scale, whether their tones
/// follow each other in the same order, each measured per channel (luma,
/// and Cb and Cr on colour pages) and taken from luma or, where stronger,
/// the channels' mean or a chroma channel's own less ``channelAlone``; the seam's strength is their mean. A book
/// in one style has many edges that look alike, so the seam is also held
/// against the best strength either page reaches with any other page within
/// ``window`` pages (Gallagher's idea of judging a match against the piece's
/// own alternatives): its confidence is its strength, less whatever it falls
/// short of beating them by ``requiredMargin``, and then lowered where paper
/// meets ink at the spine, raised or lowered by how many of the lines
/// drawn there continue (where half of them or more do, the rivals no
/// longer count: ``StripScore/rivalsCount(lines:)``), lowered where flat
/// lines (panel borders) do not, and where those both pages draw fall
/// apart from one shift (``StripScore/bordersApart(_:_:)``), raised where the edges of areas continue,
/// lowered where the facing edges' tones fall out of one proportion more than
/// each page's own columns do and raised a little where they keep it and
/// neither edge is flat, more where their tones also run in one order down
/// the whole height (``StripScore``, from the pages' strips),
/// lowered where two gray pages' screentones at the spine are not one tone
/// and raised a little where they are (``ToneTexture``), and,
/// between colour pages, lowered where their hues at the spine differ
/// (``ColourScore``). A seam is a split when its
/// confidence reaches the threshold (`--pairing-threshold`, default
/// ``defaultThreshold``). A false split shifts every spread after it, so the
/// default favours precision (docs/pairing.md gives the measurements).
///
/// A seam whose edges have too little detail to compare in any channel
/// (``SeamScore/score(_:_:maxShift:)`` is nil) but both have a shape
/// (``SeamScore/Edge/shaped``: a band, a stripe's rise and fall) is judged on
/// its levels alone, which then stand for its seam score too. Such a shape is
/// also what every page of a book may share (a vignette, a gutter shadow, a
/// running rule), so the seam is held against the levels either page
/// reaches with any other page nearby (with detail or not) and counts only
/// where it beats them all by ``aloneMargin``; elsewhere, and where no other
/// pairing nearby could be measured to tell the book's shape from the
/// artwork's, its confidence is 0. Detail at the other pages' edges can
/// lower their levels a little even where they share the shape (0.08 on a
/// vignette with marks beside it), hence four times ``requiredMargin``.
package enum SplitDetector {

    /// Every seam of a book that could be judged, in reading order, with its
    /// confidence, and `isSplit` set on those taken.
    /// - Parameters:
    ///   - edges: page `n`'s edges at index `n − 1`; nil where a page abstains.
    ///   - threshold: the confidence a split needs, in thousandths.
    ///   - jobs: seams whose strips are measured at once; the result does not depend on it.
    ///   - eligible: whether page `n` may be part of a split (not wide, not solo).
    package static func detect(_ edges: [PageEdges?], direction: ReadingDirection, threshold: Int = defaultThreshold,
                       jobs: Int = 1, eligible: (Int) -> Bool) -> [Seam] {
        let count = edges.count
        /// One channel of a page as the detector reads it: the edge it shows its
        /// successor and the one it shows its predecessor.
        struct Facing {
            package var outgoing: SeamScore.Edge, incoming: SeamScore.Edge
        }
        let facing: [[Facing]?] = edges.map { page in
            page.map { $0.channels.map { channel in
                let (out, into) = channel.facing(direction)
                return Facing(outgoing: SeamScore.Edge(out), incoming: SeamScore.Edge(into))
            } }
        }
        /// A colour page's chroma, at the edge it shows its successor and the one it shows its predecessor.
        let colours: [(outgoing: ColourScore.Edge, incoming: ColourScore.Edge)?] = edges.map { page in
            guard let page, page.inColour else { return nil }
            let (cb, cr) = (page.channels[1].facing(direction), page.channels[2].facing(direction))
            return (ColourScore.Edge(cb: cb.outgoing, cr: cr.outgoing), ColourScore.Edge(cb: cb.incoming, cr: cr.incoming))
        }
        func usable(_ page: Int) -> Bool { page >= 1 && page <= count && edges[page - 1] != nil && eligible(page) }
        func strength(_ score: Int, _ levels: Int) -> Int { (score + levels) / 2 }
        /// `levels` as a seam judged on its levels alone is held against them: without a chroma channel's own
        /// reading (``channelAlone``), which a shape every page shares would lift as much as an artwork.
        typealias Measures = (score: Int, levels: Int, shapeOnly: Bool, plainLevels: Int)
        var measured: [Int: Measures?] = [:]
        /// The two measures of page `from`'s outgoing edge against page `to`'s
        /// incoming edge: luma's, or, where it is stronger, their mean over
        /// the channels both pages have (luma, and Cb and Cr when both are in
        /// colour) that carry enough to judge; when no channel has the detail,
        /// the same over the channels whose edges both have a shape, on their levels alone.
        /// The seam score is the better of its two scales, or with `meanOfScales` their mean (``sharedBorders``).
        func measures(_ from: Int, _ to: Int, meanOfScales: Bool = false) -> Measures? {
            let key = 2 * (from * (count + 1) + to) + (meanOfScales ? 1 : 0)
            if let known = measured[key] { return known }
            var detailed: [(score: Int, levels: Int)?] = [], shaped: [(score: Int, levels: Int)?] = []
            if let a = facing[from - 1], let b = facing[to - 1] {
                // Colour pages' fine scale holds its blocks to one line of shifts (``SeamScore/score(_:_:maxShift:together:)``).
                let together = edges[from - 1]?.inColour == true && edges[to - 1]?.inColour == true
                for (a, b) in zip(a, b) {
                    let fine = SeamScore.score(a.outgoing.fine, b.incoming.fine, together: together), shape = a.outgoing.shaped && b.incoming.shaped
                    let levels = fine != nil || shape ? SeamScore.levels(a.outgoing.ranks, b.incoming.ranks) ?? -1000 : 0
                    shaped.append(shape ? (levels, levels) : nil)
                    // The better of the two scales (fine detail, or structure the coarse scale keeps through screentone
                    // and steep lines), or their mean where the seam is held to both.
                    detailed.append(fine.map { fine in
                        let coarse = SeamScore.score(a.outgoing.coarse, b.incoming.coarse, maxShift: SeamScore.coarseRadius) ?? fine
                        return (meanOfScales ? (fine + coarse) / 2 : max(fine, coarse), levels)
                    })
                }
            }
            let result = combined(detailed).map { plain in
                let reading = chromaAlone(plain, detailed)
                return (reading.score, reading.levels, false, plain.levels)
            } ?? combined(shaped).map { ($0.score, $0.levels, true, $0.levels) }
            measured[key] = result
            return result
        }
        /// Luma's measures, or their mean over every channel judged where that is stronger.
        func combined(_ channels: [(score: Int, levels: Int)?]) -> (score: Int, levels: Int)? {
            let judged = channels.compactMap { $0 }
            var result = channels.first ?? nil
            if judged.count > 1 || result == nil, !judged.isEmpty {
                let mean = (score: judged.map(\.score).reduce(0, +) / judged.count,
                            levels: judged.map(\.levels).reduce(0, +) / judged.count)
                if result.map({ strength(mean.score, mean.levels) > strength($0.score, $0.levels) }) ?? true { result = mean }
            }
            return result
        }
        /// `reading`, or a chroma channel's own measures less ``channelAlone`` where they are stronger: for detail
        /// only, since a shape every page shares is as likely in one channel as in another.
        func chromaAlone(_ reading: (score: Int, levels: Int), _ channels: [(score: Int, levels: Int)?]) -> (score: Int, levels: Int) {
            var result = reading
            for channel in channels.dropFirst().compactMap({ $0 }) {
                let alone = (score: channel.score - channelAlone, levels: channel.levels - channelAlone)
                if strength(alone.score, alone.levels) > strength(result.score, result.levels) { result = alone }
            }
            return result
        }

        // The seams that can be judged, with their measures; what their strips say is the costliest
        // measure and each seam's own, so those are measured at once.
        let judged = stride(from: 1, to: count, by: 1).compactMap { first in
            usable(first) && usable(first + 1) ? measures(first, first + 1).map { (first, $0) } : nil
        }
        let measuredStrips = ParallelMap.run(judged.count, jobs: jobs) { k in
            Self.strips(edges[judged[k].0 - 1], edges[judged[k].0], direction: direction)
        }

        var seams: [Seam] = []
        for ((first, measuredSeam), strips) in zip(judged, measuredStrips) {
            var seam = measuredSeam
            if let borders = strips?.borders, borders >= sharedBorders, !seam.shapeOnly,
               let meanOfScales = measures(first, first + 1, meanOfScales: true) {
                seam = meanOfScales
            }
            var rival = Int.min, rivalLevels = Int.min
            let nearby = max(1, first - window)...min(count, first + 1 + window)
            for other in nearby where other != first && other != first + 1 && usable(other) {
                for m in [measures(first, other), measures(other, first + 1)].compactMap({ $0 }) {
                    if !m.shapeOnly { rival = max(rival, strength(m.score, m.levels)) }
                    rivalLevels = max(rivalLevels, m.plainLevels)
                }
            }
            // A seam with detail is held against the alternatives with detail (a strength judged on levels alone
            // is not one of theirs); a seam judged on its levels alone against every alternative's levels, and
            // counts only where there is one and it beats them all.
            let (own, best) = seam.shapeOnly ? (seam.levels, rivalLevels) : (strength(seam.score, seam.levels), rival)
            // With no alternative a seam with detail has beaten them all; one judged on its levels alone has beaten nothing.
            let margin = best == Int.min ? (seam.shapeOnly ? 0 : own) : own - best
            var apart: Int?
            if let a = colours[first - 1], let b = colours[first] { apart = ColourScore.apart(a.outgoing, b.incoming) }
            let adjustment = (strips.map { StripScore.adjustment(ink: $0.ink, lines: $0.lines, borders: $0.borders, edges: $0.edges,
                                                                          proportion: $0.proportion, toneRange: $0.toneRange,
                                                                          colour: apart != nil)
                                                     + StripScore.inOrderAndProportion(levels: seam.levels, proportion: $0.proportion,
                                                                                       toneRange: $0.toneRange)
                                                     + StripScore.steepLinesAdjustment($0.steepLines)
                                                     - StripScore.bordersApartPenalty($0.bordersApart)
                                                     + ($0.tones.map(ToneTexture.adjustment) ?? 0) } ?? 0)
                - (apart.map(ColourScore.penalty) ?? 0)
            let shortfall = max(0, requiredMargin - margin) * StripScore.rivalsCount(lines: strips?.lines) / 1000
            let confidence = seam.shapeOnly && margin < aloneMargin
                ? 0 : min(1000, max(0, own - shortfall + adjustment))
            seams.append(Seam(first: first, confidence: confidence, score: seam.score, levels: seam.levels, margin: margin,
                              strips: strips, coloursApart: apart, levelsAlone: seam.shapeOnly))
        }
        // Overlapping seams over the threshold (7+8 and 8+9): the surer one, the earlier on a tie.
        var taken = Set<Int>()
        for index in seams.indices.sorted(by: { (seams[$0].confidence, -$0) > (seams[$1].confidence, -$1) })
        where seams[index].confidence >= threshold
            && !taken.contains(seams[index].first) && !taken.contains(seams[index].second) {
            taken.formUnion([seams[index].first, seams[index].second])
            seams[index].isSplit = true
        }
        return seams
    }

    /// What the strips of two consecutive pages say (``StripScore``): nil
    /// unless both pages have strips.
    package static func strips(_ a: PageEdges?, _ b: PageEdges?, direction: ReadingDirection) -> Seam.Strips? {
        guard let pageA = a, let pageB = b, let a = pageA.strips, let b = pageB.strips else { return nil }
        // Two colour pages' tones are compared at their best shift (``StripScore/proportionShift``).
        let colour = pageA.inColour && pageB.inColour
        let (outgoing, incoming) = (a.facing(direction).outgoing, b.facing(direction).incoming)
        let (out, into) = (StripScore.Strip(outgoing), StripScore.Strip(incoming))
        let lost = StripScore.lostColumns
        let (outResponse, intoResponse) = (StripScore.response(out), StripScore.response(into))
        let (outLines, intoLines) = (StripScore.lines(response: outResponse), StripScore.lines(response: intoResponse))
        let lines = StripScore.linesContinue(outLines, intoLines, lost: lost)
        let borders = StripScore.bordersContinue(outLines, intoLines)
        let edges = StripScore.edgesContinue(StripScore.edges(response: outResponse),
                                             StripScore.edges(response: intoResponse), lost: lost)
        let steep = StripScore.steepLinesContinue(out, into, lost: lost)
        return Seam.Strips(ink: StripScore.paperAgainstInk(out, into),
                           lines: lines.flatMap { $0.strength > StripScore.lineStrength ? $0.share : nil },
                           steepLines: steep.flatMap { $0.strength > StripScore.lineStrength ? $0.share : nil },
                           borders: borders.flatMap { $0.strength > StripScore.borderStrength ? $0.share : nil },
                           bordersApart: StripScore.bordersApart(out, into),
                           edges: edges.flatMap { $0.strength > StripScore.edgeStrength ? $0.share : nil },
                           proportion: StripScore.outOfProportion(outgoing, incoming, maxShift: colour ? StripScore.proportionShift : 0),
                           toneRange: [StripScore.toneRange(outgoing), StripScore.toneRange(incoming)].compactMap { $0 }.min(),
                           tones: tones(pageA, pageB, direction: direction))
    }

    /// ``ToneTexture/unlike(_:_:outgoingIsRight:)`` of two pages' facing edges, where both are gray.
    package static func tones(_ a: PageEdges, _ b: PageEdges, direction: ReadingDirection) -> ToneTexture.Unlike? {
        guard let a = a.tones, let b = b.tones else { return nil }
        return ToneTexture.unlike(a.facing(direction).outgoing, b.facing(direction).incoming, outgoingIsRight: direction == .ltr)
    }
}
