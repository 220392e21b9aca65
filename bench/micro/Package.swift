// swift-tools-version:6.1
// Micro-benchmarks for Mihiraki's hot paths (ordo-one/benchmark), beside the
// end-to-end comparison with libvips, Pillow and ImageMagick in scripts/bench.
// A separate package (bench/micro), like Fuzz/, so a normal build never resolves or builds
// the benchmark harness.
//   swift package --package-path bench/micro benchmark
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which is whatever the
// checkout is called.
let mihiraki = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "MihirakiBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Without the default traits: the benchmarks measure kernels, not PDF pages.
        .package(path: "../..", traits: []),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Kernels",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Mihiraki", package: mihiraki),
            ],
            path: "Benchmarks/Kernels",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
