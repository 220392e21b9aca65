import MihirakiCodecs
import MihirakiCore
import MihirakiRaster

// Automatic pairing's tuning, in one table: every constant the measures and
// the confidence are tuned by, grouped by the type that reads it, each with
// why it is what it is (docs/pairing.md names the measures). The design is
// frozen: a change here is measured on every labelled seed first
// (scripts/pairing-replay --set, scripts/bench-pairing).

extension ColourScore {
    /// Shifts (bands) the two edges are compared at; the least distance counts.
    package static let reach = 4
    /// The chroma a band needs on both pages for its hue to count, in 1/16 levels (6 levels).
    package static let saturated: Int64 = 6 * 16
    /// A band where one page has this much chroma (18 levels) and the other
    /// under a quarter of it is one colour facing gray: apart entirely.
    package static let vivid: Int64 = 18 * 16
    /// Where a seam's distance starts to lower its strength, in thousandths.
    package static let knee = 120
}

extension PageEdges {
    /// Bands from top to bottom.
    package static let rows = 512
    /// The height the strips are measured as: a column of the strips is a
    /// 1/1,280 of the page's height wide (one column on a page 1,280 rows
    /// high, two and a half on one 3,200 rows high).
    package static let canonicalHeight = 1280
    /// How much lighter than the page past it (1/256 levels) a column at
    /// the edge must be to be a scan's fill.
    package static let fillStep: Int32 = 16 * 256
    /// Luma at least this light (1/256 levels) is paper: rows white across
    /// the strip are passed over when looking for the fill.
    package static let paperLevel: Int32 = 232 * 256
}

extension SeamScore {
    /// The seam's gradients are cut into 12 blocks down the height, each correlated at its own shift.
    package static let blocks = 12
    /// At the fine scale a block may shift up to 6 bands either way: a scan's shift and scale move content.
    package static let maxShift = 6
    /// The coarse scale's half-width, in bands; its blocks shift by at most this much.
    package static let coarseRadius = 4
    /// With fewer than 3 blocks that carry detail a seam has no score (white margins, flat fills).
    package static let minimumBlocks = 3
    /// With `together`: the most a scan's scale and skew move the line of shifts between the middle of the height
    /// and either end, in bands (a 0.5 % scale difference moves the ends 1.3 bands; two scans, twice that).
    package static let togetherTilt = 3
    /// With `together`: how far a block's shift may stray from the line, in bands.
    package static let togetherSlack = 1
    /// With `together`: what the score gets back, in thousandths, for the chances to match it no longer has: what
    /// luma's fine score of the median photo split of the seeds the measures were chosen on loses held together
    /// (docs/pairing.md, "Blocks held together").
    package static let togetherCredit = 60
    /// Half-width of the box that smooths the gradient.
    package static let smoothing = 1
    /// Mean squared gradient (in (1/16 level)² units) below which a block is flat:
    /// an RMS step of about 1.5 gray levels per band.
    package static let flatEnergy: Int64 = 576
    /// How far (in 1/16 levels, 24 gray levels) a coarse profile must stray
    /// from its straight line for its ``Edge/shaped`` to hold.
    package static let shapeSpan: Int64 = 16 * 24
}

extension SplitDetector {
    /// The default of `--pairing-threshold`, in thousandths.
    package static let defaultThreshold = 700
    /// What a seam must beat the strongest rival pairing of either page by, in thousandths (Gallagher's yardstick).
    package static let requiredMargin = 50
    /// What a seam judged on its levels alone must beat every alternative's levels by.
    package static let aloneMargin = 200
    /// The rivals: the pairings either page makes with any page within 12 pages of it.
    package static let window = 12
    /// What a chroma channel's measures lose when that channel alone makes the seam's strongest reading
    /// (luma's, or the mean over the channels, weaker): the best of several readings of pages that are not one
    /// artwork is higher than any one of them. Where brightness barely changes along the spine (a hue turning
    /// at one luminance, a dark picture whose detail is in its colour) a channel of its own carries what the
    /// mean with luma dilutes (docs/pairing.md, "A colour on its own").
    package static let channelAlone = 20
    /// The share of the flat lines at the spine (``StripScore/bordersContinue(_:_:)``, in thousandths)
    /// from which a seam's score is the mean of its two scales rather than the better. Where nearly
    /// all of them continue, both pages' panel rows meet at the same heights, which one layout gives
    /// as surely as one artwork; at the coarse scale each border is a bump that matches whatever lies
    /// between, while the fine scale asks that the detail between the borders continue too. Such a
    /// seam is held to both (docs/pairing.md, "Borders that all continue").
    package static let sharedBorders = 900
}

extension StripScore {
    /// Darkness (in ``unit``s of a column's white) under which a band is paper in every column, over which a
    /// column has turned to ink, and over which the band past an edge is a solid line.
    package static let paperDark: Int64 = 737, halfDark: Int64 = 2048, solidDark: Int64 = 2458
    /// The bands of paper a run needs for its ends to count, and how far past a run's end the columns must turn.
    package static let paperRun = 3, edgeSearch = 6
    /// The most two matched flat edges' heights may differ by, in bands: two scans' shifts of up to 4 pixels each
    /// and a layout's borders drawn a little apart.
    package static let bordersReach = 5
    /// The most one matched pair counts for in ``bordersApart(_:_:)``, in bands.
    package static let bordersMismatch: Int64 = 1
    /// Borders apart lower a seam past 0.2 of a band, a thousandth for each thousandth of a band.
    package static let bordersApartKnee = 200, bordersApartWeight = 1000
    /// The share of lines that continue under which, where both pages are
    /// in colour, a seam is lowered (0.3 of the shortfall). The lines a
    /// photograph or a painting draws at the spine are the soft boundaries
    /// of its light and texture, which a scan's blur and skew move: the
    /// labelled sets' colour splits continue a median 0.23–0.29 of their
    /// lines where the gray splits continue 0.59–0.68. A tenth of the
    /// colour splits are under 0.1, and 85 % of the colour pairs that are
    /// not one artwork (docs/pairing.md, "Lines in colour").
    package static let colourLinesKnee = 100
    /// The share of borders that continue under which a seam loses half the
    /// shortfall: the halves of one artwork's panels carry their borders
    /// across the spine, so where half of the borders' strength or more
    /// meets nothing on the other page, the pages are likelier two.
    package static let bordersKnee = 500
    /// The line strength (in units of the white) over which a seam's lines count.
    package static let lineStrength = 20
    /// The flat lines' strength (in units of the white) over which a seam's borders count.
    package static let borderStrength = 10
    /// The edges' strength (in units of the white) over which a seam's edges count.
    package static let edgeStrength = 10
    /// The strips' columns two scans may have lost at the spine together:
    /// 12, nearly 1 % of the page's height (each column a 1/1,280 of it,
    /// ``PageEdges/canonicalHeight``).
    package static let lostColumns = 12
    /// The most a band's darkness is held to (``Strip/dark``): 24 columns of ten steps at this stay
    /// within 32 bits, and levels of 0–255 never come near it.
    package static let darkLimit: Int64 = 8_000_000
    /// How far above and below a height ``edges(response:)`` compares, in bands.
    package static let edgeStep = 2
    /// The levels (thousandths) over which tones in proportion run in one
    /// order (``inOrderAndProportion(levels:proportion:toneRange:)``).
    package static let inOrder = 900
    /// The ``toneRange(_:)`` (thousandths) under which an edge is flat and
    /// keeping one proportion with it says nothing. Chosen on the tuned
    /// seeds (docs/pairing.md, "Flat edges keep any proportion"): their
    /// pairs of white pages that are not one artwork stray 0–1 thousandths.
    package static let flatRange = 2
    /// How far out of proportion (thousandths) two edges may be before the
    /// seam is lowered: the 95th to 99th percentile of the splits of the
    /// labelled sets (docs/pairing.md).
    package static let proportionKnee = 15
    /// How close to one proportion (thousandths) two edges' tones must be
    /// for the seam to be raised (``adjustment(ink:lines:borders:edges:proportion:toneRange:)``).
    package static let proportionAlike = 6
    /// Columns the edges' 6 are compared with on their own page.
    package static let proportionColumns = [12, 18]
    /// The most two colour pages' facing edges are shifted against each other, in bands, when their
    /// proportion is read (``outOfProportion(_:_:maxShift:)``): two scans shifted by up to 4 pixels each are up
    /// to 8 apart, about 4 bands on a page 1,100 rows high. Gray pages are compared unshifted: there a shift lets
    /// rescanned screentone's moiré line up on pages that are not one artwork (docs/pairing.md,
    /// "Tones in proportion at a shift").
    package static let proportionShift = 4
    /// Tones in proportion are read on the 6 columns next to each edge, at the coarse scale.
    package static let proportionWidth = 6
    /// Columns a strip has next to its edge (``PageEdges/strips``).
    package static let depth = 24
    /// Shifts (bands) a band of ink must hold at, and line heights may differ by.
    package static let reach = 4
    /// A line continues where the other page draws one within 3 bands at the mirrored slope.
    package static let lineReach = 3
    /// Darkness as a share of a column's white, in 1/4096.
    package static let unit: Int64 = 4096
}

extension ToneTexture {
    /// A window's height, in rows of the strip.
    package static let window = 32
    /// Rows between windows.
    package static let step = 16
    /// A window is toned where its quarters' least detail is 0.3 of the most: a line or border crossing it is not.
    package static let evenness = 0.3
    /// A toned window holds 20,000 levels² a pixel: paper's grain a few thousand, a screentone far more.
    package static let tonePower = 20_000.0
    /// A window with over 0.7 of its power along the horizontal axis holds a border's rules, not a tone.
    package static let flatShare = 0.7
    /// Cycles a window (scaled to a window 32 columns wide) under which a frequency is shading, not tone.
    package static let lowest = 3.0
    /// A toned window is unlike where its best cosine against the other page's windows is under 0.5.
    package static let alike = 0.5
}
