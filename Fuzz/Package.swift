// swift-tools-version:6.1
// libFuzzer harnesses for Mihiraki's parsers. Built and run by scripts/fuzz
// with -sanitize=fuzzer,address; kept out of the main package so a normal
// build never needs the sanitizer runtimes.
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which is whatever the
// checkout is called.
let mihiraki = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "MihirakiFuzz",
    // Without the default traits: the permissive build (no poppler), which CI
    // compiles here. The PDF target still reads picture pages, qpdf and openjp2.
    dependencies: [.package(path: "..", traits: [])],
    targets: [.target(name: "FuzzDriver")] + ["FuzzImage", "FuzzComicInfo", "FuzzArchive", "FuzzPDF", "FuzzPairing"].map { name in
        .executableTarget(name: name, dependencies: ["FuzzDriver", .product(name: "Mihiraki", package: mihiraki)])
    } + [
        // The server's request parsing, without its HTTP stack.
        .executableTarget(name: "FuzzRequest", dependencies: [
            "FuzzDriver", .product(name: "Mihiraki", package: mihiraki),
            .product(name: "MihirakiRequests", package: mihiraki),
        ]),
    ]
)
