// The value types a client of the front door needs by name, from the inner
// modules: the options' vocabulary, colours, and the pixels a rendered spread
// comes back as. Everything else in the inner modules stays inside the package.
@_exported import enum MihirakiCore.CanvasSize
@_exported import enum MihirakiCore.CoverMode
@_exported import enum MihirakiCore.BackCoverMode
@_exported import enum MihirakiCore.PairingMode
@_exported import enum MihirakiCore.FitMode
@_exported import enum MihirakiCore.HorizontalAlignment
@_exported import enum MihirakiCore.LayoutMode
@_exported import struct MihirakiCore.PageAspect
@_exported import enum MihirakiCore.ReadingDirection
@_exported import enum MihirakiCodecs.PNGCompression
@_exported import struct MihirakiRaster.Color
@_exported import struct MihirakiRaster.PixelBuffer
@_exported import struct MihirakiCodecs.SpreadFormat
@_exported import struct MihirakiCodecs.SpreadEncoding
@_exported import enum MihirakiRaster.ComparisonMetric
@_exported import enum MihirakiCore.SplitWideMode
