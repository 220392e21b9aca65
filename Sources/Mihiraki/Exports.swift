// The library's front door re-exports the value types people use with it.
@_exported import MihirakiCodecs
@_exported import MihirakiCore
@_exported import MihirakiRaster
