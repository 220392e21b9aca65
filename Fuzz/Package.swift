// swift-tools-version:6.0
// libFuzzer harnesses for Mihiraki's parsers. Built and run by scripts/fuzz
// with -sanitize=fuzzer,address; kept out of the main package so a normal
// build never needs the sanitizer runtimes.
import PackageDescription

let package = Package(
    name: "MihirakiFuzz",
    dependencies: [.package(path: "..")],
    targets: ["FuzzPNG", "FuzzJPEG", "FuzzComicInfo", "FuzzArchive"].map { name in
        .executableTarget(name: name, dependencies: [.product(name: "Mihiraki", package: "main")])
    }
)
