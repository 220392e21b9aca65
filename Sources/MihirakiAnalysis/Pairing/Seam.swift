import MihirakiRaster
import MihirakiCore
import MihirakiCodecs
/// Two consecutive pages whose facing edges `--pairing auto` judged (SPEC §2,
/// "Automatic pairing"): every pair of pages that may form a split and whose
/// edges carry enough to judge, whether or not it was taken.
package struct Seam: Hashable, Sendable {
    /// The first page in reading order; the second is `first + 1`.
    package var first: Int
    /// How sure the detector is that the two pages are one artwork, in
    /// thousandths (0…1000): the mean of ``score`` and ``levels``, less what
    /// ``margin`` falls short of ``SplitDetector/requiredMargin`` (in the
    /// share ``StripScore/rivalsCount(lines:)`` of its lines gives), plus
    /// ``StripScore/adjustment(ink:lines:borders:edges:proportion:toneRange:)`` of its ``strips``,
    /// ``StripScore/inOrderAndProportion(levels:proportion:toneRange:)`` of its ``levels`` and their
    /// tones, and ``ToneTexture/adjustment(_:)`` of their tones (on gray pages), less
    /// ``StripScore/bordersApartPenalty(_:)`` of its borders apart, less
    /// ``ColourScore/penalty(_:)`` of its ``coloursApart`` (0 for a
    /// seam judged on its levels alone whose margin is under
    /// ``SplitDetector/aloneMargin``). A seam is a split when this reaches
    /// the threshold (`--pairing-threshold`) and no stronger overlapping
    /// seam took one of its pages.
    package var confidence: Int
    /// ``SeamScore/score(_:_:maxShift:)`` of the facing edges (the better of two scales, or their mean where
    /// nearly all the borders at the spine continue: ``SplitDetector/sharedBorders``), in thousandths:
    /// luma's, or the mean over the colour channels or a chroma channel's own where that made the stronger seam
    /// (``SplitDetector``, ``SplitDetector/channelAlone``).
    package var score: Int
    /// ``SeamScore/levels(_:_:)`` of the facing edges, in thousandths, from the same channels as ``score``.
    package var levels: Int
    /// How far the seam's strength beat the best either page reaches with any other page nearby, in thousandths
    /// (its levels and theirs where it was judged on ``levels`` alone, and 0
    /// for such a seam when no other pairing nearby could be measured).
    package var margin: Int
    /// What the pages' strips say (``StripScore``), in thousandths: the share
    /// of bands where paper meets ink, the share of the lines drawn at the
    /// spine that continue, of the flat lines (panel borders) that do, and
    /// of the edges (each nil where too few are drawn to count), and how far
    /// their tones fall out of proportion and how far the flatter edge's
    /// tones stray from one level; nil where a page is too narrow
    /// for strips.
    package struct Strips: Hashable, Sendable {
        package var ink: Int
        package var lines: Int?
        /// ``StripScore/steepLinesContinue(_:_:lost:)``'s share, where their strength is over
        /// ``StripScore/lineStrength``.
        package var steepLines: Int? = nil
        package var borders: Int?
        /// ``StripScore/bordersApart(_:_:)`` of the facing strips, in thousandths of a band; nil under 3 shared edges.
        package var bordersApart: Int? = nil
        package var edges: Int?
        /// ``StripScore/outOfProportion(_:_:maxShift:)`` of the facing edges; nil where they are too dark to tell.
        package var proportion: Int?
        /// The lesser of the facing edges' ``StripScore/toneRange(_:)``; nil where both are too dark to tell.
        package var toneRange: Int? = nil
        /// ``ToneTexture/unlike(_:_:outgoingIsRight:)`` of two gray pages' facing edges; nil where either
        /// is in colour or no toned window faces another.
        package var tones: ToneTexture.Unlike? = nil
    }
    package var strips: Strips?
    /// ``ColourScore/apart(_:_:)`` of the facing edges, in thousandths; nil unless both pages are in colour.
    package var coloursApart: Int?
    /// Whether the edges had too little detail to compare and the seam was
    /// judged on its ``levels`` alone (``score`` then repeats them).
    package var levelsAlone = false
    /// Whether the pages were taken as one artwork.
    package var isSplit = false
    /// Whether a blank was inserted before `first` to keep the pair on one spread.
    package var needsBlank = false

    package var second: Int { first + 1 }
}
