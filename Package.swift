// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Mihiraki",
    products: [
        .library(name: "Mihiraki", targets: ["Mihiraki"]),
        .executable(name: "mihiraki", targets: ["mihiraki"]),
        // What a request to `mihiraki serve` asks for, parsed; a product so the
        // fuzzers (a separate package) can reach it without the HTTP stack.
        .library(name: "MihirakiRequests", targets: ["MihirakiRequests"]),
        // The C ABI (include/mihiraki.h) as a shared library, for other
        // languages: the Python package (python/) loads it with ctypes.
        .library(name: "MihirakiC", type: .dynamic, targets: ["MihirakiC"]),
    ],
    traits: [
        // Vector and text PDF pages drawn by poppler (GPL-2.0-or-later). On by
        // default; `--disable-default-traits` (or a dependency declared with
        // `traits: []`) builds a library that links only permissive code,
        // which reads picture PDFs and refuses other pages in one line.
        .trait(name: "Poppler", description: "Rasterise PDF pages that are not one picture with poppler (GPL)"),
        .default(enabledTraits: ["Poppler"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // Without ConfigurationSupport: swift-configuration and what it brings
        // are built for a feature Mihiraki does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // Every image library call lives here; setjmp/longjmp never leave C.
        .target(
            name: "CMihirakiCodecs",
            dependencies: ["CMihirakiKernels"],
            // libavif, libjxl and libarchive are loaded when first needed (lazy_codecs.c), not linked.
            linkerSettings: ["png16", "jpeg", "deflate", "z", "webp", "webpdemux", "gif", "lcms2"].map {
                .linkedLibrary($0)
            }
        ),
        // PDF structure, page boxes and a page's one picture, through qpdf
        // (Apache-2.0) and openjp2 for JPEG 2000 (BSD); C++ behind a C face,
        // no exception leaves it.
        .target(name: "CMihirakiPDF", linkerSettings: [.linkedLibrary("qpdf"), .linkedLibrary("openjp2"), .linkedLibrary("jpeg")]),
        // The PDF rasteriser: poppler (GPL), only with the trait Poppler.
        .target(name: "CMihirakiPoppler", linkerSettings: [.linkedLibrary("poppler-cpp")]),
        // Pure value code: imposition, geometry, options, ComicInfo. No pixels, no I/O.
        .target(name: "MihirakiCore"),
        // Multiply-add kernels in C (AVX2, SSSE3 or SSE2 on x86-64, chosen at run time; scalar elsewhere); the
        // scalar Swift reference in MihirakiRaster is what they are tested against. Also the exact inverse DCT
        // that pairing reads a JPEG page's edges with (AVX2, and its scalar reference in C).
        .target(name: "CMihirakiKernels"),
        // Pixel buffers and kernels: fill, blit, composite, resample.
        .target(name: "MihirakiRaster", dependencies: ["CMihirakiKernels"]),
        // Swift faces of the decoders and the PNG encoder.
        .target(name: "MihirakiCodecs", dependencies: [
            "CMihirakiCodecs", "CMihirakiPDF", "MihirakiRaster",
            .target(name: "CMihirakiPoppler", condition: .when(traits: ["Poppler"])),
        ]),
        // The library's front door: books, plans, rendering, comparison. Only its
        // own public API and the types Exports.swift names reach a client; the
        // inner modules share the rest with `package` access.
        // What a page's pixels say about it, as pure functions of page facts:
        // automatic pairing's measures, the gutter of a wide page, a scan's borders.
        .target(name: "MihirakiAnalysis", dependencies: ["MihirakiCore", "MihirakiRaster", "MihirakiCodecs"]),
        .target(name: "Mihiraki", dependencies: ["MihirakiCore", "MihirakiRaster", "MihirakiCodecs", "MihirakiAnalysis",
                                                 "ZIPFoundation"]),
        // Book ids, query parameters and signed URLs (HMAC-SHA256) of
        // `mihiraki serve`, parsed and checked: pure code, no HTTP stack,
        // fuzzed on its own.
        .target(name: "MihirakiRequests",
                dependencies: ["Mihiraki", .product(name: "HTTPTypes", package: "swift-http-types")]),
        // `mihiraki serve`: spreads over HTTP. Hummingbird and swift-nio stay in
        // this module; the library and its clients never build them.
        .target(
            name: "MihirakiServer",
            dependencies: ["Mihiraki", "MihirakiCore", "MihirakiCodecs", "MihirakiRequests", "MihirakiProcess",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                           .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        // The C ABI: opaque handles, an error object, options as the table's names and values.
        // include/mihiraki.h as a module: the Swift side of the C ABI takes its numbers from it.
        .target(name: "CMihirakiABI"),
        .target(name: "MihirakiC", dependencies: ["Mihiraki", "CMihirakiABI"]),
        // Process-wide settings (the allocator) the program makes for itself,
        // and the words for a child process that ended by a signal.
        .target(name: "CMihirakiProcess"),
        // Its Swift face: the one module that imports CMihirakiProcess.
        .target(name: "MihirakiProcess", dependencies: ["CMihirakiProcess"]),
        // The command-line tool, a thin layer over the library and the server.
        .executableTarget(
            name: "mihiraki",
            dependencies: ["Mihiraki", "MihirakiServer", "MihirakiRequests", "MihirakiProcess",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // A JPEG writer for test fixtures: progressive, CMYK, YCCK, EXIF — what spreads never are.
        .target(name: "CMihirakiFixtureCodecs", path: "Tests/CMihirakiFixtureCodecs",
                linkerSettings: [.linkedLibrary("jpeg")]),
        // Fixture paths and image builders shared by the test targets.
        .target(name: "MihirakiTestSupport",
                dependencies: ["MihirakiCodecs", "MihirakiRaster", "CMihirakiFixtureCodecs", "MihirakiProcess", "ZIPFoundation"],
                path: "Tests/MihirakiTestSupport"),
        .testTarget(name: "MihirakiCoreTests", dependencies: ["MihirakiCore", "MihirakiTestSupport"]),
        .testTarget(name: "MihirakiRasterTests", dependencies: ["MihirakiRaster", "CMihirakiKernels", "MihirakiTestSupport"]),
        .testTarget(name: "MihirakiCodecsTests", dependencies: ["MihirakiCodecs", "CMihirakiCodecs", "MihirakiRaster", "MihirakiTestSupport"]),
        .testTarget(name: "MihirakiTests", dependencies: ["Mihiraki", "MihirakiCore", "MihirakiRaster", "MihirakiCodecs",
                                                          "MihirakiAnalysis", "MihirakiTestSupport"]),
        .testTarget(name: "MihirakiServerTests",
                    dependencies: ["MihirakiServer", "MihirakiRequests", "Mihiraki", "MihirakiTestSupport", "MihirakiCodecs",
                                   "MihirakiRaster",
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "HTTPTypes", package: "swift-http-types"),
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "NIOCore", package: "swift-nio"),
                                   .product(name: "NIOEmbedded", package: "swift-nio")]),
        .testTarget(name: "CLITests", dependencies: ["mihiraki", "Mihiraki", "MihirakiTestSupport", "MihirakiCodecs", "MihirakiRaster"]),
    ]
)
