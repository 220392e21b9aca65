// The C ABI's comparison: `mihiraki_compare` and `mihiraki_compare_metric`
// (include/mihiraki.h), beside the books' calls in MihirakiABI.swift.
import Foundation
import Mihiraki

@_cdecl("mihiraki_compare")
public func mihiraki_compare(_ expected: UnsafePointer<CChar>?, _ actual: UnsafePointer<CChar>?, _ threshold: Double,
                             _ report: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                             _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    mihiraki_compare_metric(expected, actual, nil, threshold, -1, report, result, errorOut)
}

@_cdecl("mihiraki_compare_metric")
public func mihiraki_compare_metric(_ expected: UnsafePointer<CChar>?, _ actual: UnsafePointer<CChar>?,
                                    _ metric: UnsafePointer<CChar>?, _ threshold: Double, _ shiftTolerance: Int32,
                                    _ report: UnsafePointer<CChar>?, _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                    _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    do {
        guard let expected, let actual else { throw MihirakiError(.usage, "compare needs two paths") }
        var options = ImageComparator.Options()
        if let metric {
            let name = String(cString: metric)
            guard let known = ComparisonMetric(rawValue: name) else {
                let names = ComparisonMetric.allCases.map(\.rawValue).joined(separator: ", ")
                throw MihirakiError(.usage, "unknown metric '\(name)' (known: \(names))")
            }
            options.metric = known
        }
        options.threshold = threshold.isNaN ? nil : threshold
        let tolerance = shiftTolerance < 0 ? 2 : Int(shiftTolerance)
        try BookComparison.check(shiftTolerance: tolerance)
        options.reportFolder = report.map { FileSystem.path(cString: $0) }
        try options.validate()
        let first = FileSystem.path(cString: expected), second = FileSystem.path(cString: actual)
        var isFolder: ObjCBool = false
        let folders = FileManager.default.fileExists(atPath: first, isDirectory: &isFolder) && isFolder.boolValue
        let comparisons = folders
            ? try ImageComparator.compareFolders(expected: first, actual: second, options: options)
            : [ImageComparator.compareFiles(expected: first, actual: second, options: options)]
        if let folder = options.reportFolder {
            try ImageComparator.writeReport(comparisons, to: folder, title: "\(first) against \(second)")
        }
        // Two book folders with manifests: the document `compare --json` prints, and its lines.
        if folders, let book = try BookComparison.compare(expected: first, actual: second, options: options,
                                                          shiftTolerance: tolerance) {
            if let result { result.pointee = strdup(ImageComparator.json(book, files: comparisons, lines: true)) }
            return Int32(book.plan.count + book.slots.filter { !$0.passes }.count)
        }
        if let result {
            result.pointee = json(comparisons.map { comparison -> [String: Any] in
                ["name": comparison.name, "status": "\(comparison.status)",
                 "differing_pixels": comparison.differingPixels, "total_pixels": comparison.totalPixels,
                 "detail": comparison.detail ?? ""]
            })
        }
        return Int32(comparisons.filter { $0.status != .ok }.count)
    } catch {
        fail(error, errorOut)
        return -1
    }
}
