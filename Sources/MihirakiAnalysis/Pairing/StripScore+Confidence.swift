import MihirakiRaster
import MihirakiCore
import MihirakiCodecs

/// ``StripScore``: what the strips' measures add to or take from a seam's confidence, and their
/// knees.
extension StripScore {
    /// What the strips add to a seam's confidence, in thousandths: less twice
    /// the share of paper against ink over 0.02; where the pages draw
    /// lines (`lines` is their share that continues where their strength is
    /// over ``lineStrength``), twice that share less 0.4, and 0.3 of it where
    /// it is under 0.4 (lines that continue are rare between pages that are
    /// not one artwork; lines that seem not to are often a tone's dots or
    /// lines converging near the spine), or, where both pages are in colour
    /// (`colour`), 0.3 of what it falls short of ``colourLinesKnee`` only;
    /// and where they
    /// draw flat lines (`borders`, likewise over ``borderStrength``), less
    /// half of what that share falls short of 0.5 (``bordersKnee``); and where they have
    /// edges (`edges`, over ``edgeStrength``), 0.2 of their share less 0.3
    /// (edges that reach the spine at other heights on either page lower
    /// it: two crops of one picture of folds meet that way; docs/pairing.md,
    /// "Tones in order and in proportion");
    /// and 8 times what their tones fall out of proportion
    /// (``outOfProportion(_:_:maxShift:)``) over 0.015, or, where they are within
    /// 0.006 of one proportion, up to 0.06 more: 0.01 for each thousandth
    /// under ``proportionAlike`` (tones in proportion are evidence of one
    /// artwork, not only their absence: 92–96 % of the labelled sets' drawn
    /// and tone splits are within 0.003, against 28 % of the tone family's
    /// pairs that are not one artwork over a confidence of 0.4; photo 79 %
    /// against 37 %), unless the lesser of the facing edges' ``toneRange(_:)``
    /// (`toneRange`) is under ``flatRange``: flat edges keep any proportion.
    package static func adjustment(ink: Int, lines: Int?, borders: Int? = nil, edges: Int? = nil, proportion: Int? = nil,
                           toneRange: Int? = nil, colour: Bool = false) -> Int {
        let inProportion = toneRange.map { $0 >= flatRange } ?? true
        let linesKnee = colour ? colourLinesKnee : 400
        return -2 * max(0, ink - 20) + (lines.map { $0 >= 400 ? 2 * ($0 - 400) : 3 * min(0, $0 - linesKnee) / 10 } ?? 0)
            - (borders.map { max(0, bordersKnee - $0) / 2 } ?? 0)
            + (edges.map { 2 * ($0 - 300) / 10 } ?? 0)
            + (proportion.map { (inProportion ? 10 * max(0, proportionAlike - $0) : 0) - 8 * max(0, $0 - proportionKnee) } ?? 0)
    }


    /// How much of a seam's shortfall against its rivals counts, in
    /// thousandths: all of it, less a tenth for each hundredth of its lines
    /// that continue over 0.4, none from 0.5. The rivals are held to the
    /// seam and the levels only; lines crossing the spine each at its own
    /// slope and height are evidence none of them was measured on, and no
    /// pair of the labelled sets that is not one artwork has 0.35 of them
    /// (docs/pairing.md).
    package static func rivalsCount(lines: Int?) -> Int {
        1000 - min(1000, 10 * max(0, (lines ?? 0) - 400))
    }


}
