import CMihirakiABI
import Foundation
import Mihiraki
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// Mihiraki's C ABI (include/mihiraki.h): opaque handles, an error object,
// options as the option table's names and values. Nothing Swift crosses it:
// handles are retained class instances passed as raw pointers, strings and
// buffers are malloc'ed copies the caller frees with the functions below.

/// A book handle: the book, and the plans made for it so far (by the options' record).
final class BookHandle: Sendable {
    let book: Book
    private struct Plans {
        var made: [String: SpreadPlan] = [:]
        /// The newest plan: its facts hold everything measured of the book so far.
        var latest: SpreadPlan?
    }
    private let plans = Mutex(Plans())

    init(_ book: Book) { self.book = book }

    /// The plan for these options, made once per set of options from what
    /// earlier plans measured (`jobs`: pages read at once when planning reads
    /// pixels; the plan is the same).
    func plan(_ options: LayoutOptions, jobs: Int32 = 1) throws -> SpreadPlan {
        let key = options.recorded  // every option, the format among them
        let (known, latest) = plans.withLock { ($0.made[key], $0.latest) }
        if let known { return known }
        let jobs = jobs > 0 ? Int(jobs) : ProcessInfo.processInfo.activeProcessorCount
        let plan = try latest?.replanned(with: options, jobs: jobs) ?? SpreadPlan(book: book, options: options, jobs: jobs)
        plans.withLock {
            $0.made[key] = plan
            $0.latest = plan
        }
        return plan
    }
}

/// An error handle: the kind and the one-line message, kept as C text.
final class ErrorHandle {
    let kind: Int32
    let message: UnsafeMutablePointer<CChar>

    init(kind: Int32, message: String) {
        self.kind = kind
        self.message = strdup(message)
    }

    deinit { free(message) }
}

private let usageKind = Int32(MIHIRAKI_ERROR_USAGE.rawValue), bookKind = Int32(MIHIRAKI_ERROR_BOOK.rawValue)

/// Stores `error` in `out`, as the kind the header names.
func fail(_ error: any Error, _ out: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let out else { return }
    let kind: Int32, message: String
    if let error = error as? MihirakiError {
        kind = error.code == .usage ? usageKind : bookKind
        message = error.description
    } else {
        kind = bookKind
        message = "\(error)"
    }
    out.pointee = OpaquePointer(Unmanaged.passRetained(ErrorHandle(kind: kind, message: message)).toOpaque())
}

/// The book behind a handle. A null handle (a failed open whose result went
/// unchecked) is a usage error; a freed one cannot be told from a live one.
private func book(_ pointer: OpaquePointer?) throws -> BookHandle {
    guard let pointer else { throw MihirakiError(.usage, "no book given (a null mihiraki_book)") }
    return Unmanaged<BookHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

private func errorHandle(_ pointer: OpaquePointer) -> ErrorHandle {
    Unmanaged<ErrorHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

// The message of no error: static, as the header promises an error's message outlives the call.
nonisolated(unsafe) private let noMessage = strdup("")!

func text(_ string: String) -> UnsafeMutablePointer<CChar> { strdup(string) }

/// `count` name/value pairs from two C arrays of strings.
private func pairs(_ names: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
                   _ count: Int) throws -> [(name: String, value: String)] {
    guard count > 0 else { return [] }
    guard let names, let values else { throw MihirakiError(.usage, "options given without their names or values") }
    return try (0..<count).map { index in
        guard let name = names[index], let value = values[index] else {
            throw MihirakiError(.usage, "option \(index) has no name or no value")
        }
        return (String(cString: name), String(cString: value))
    }
}

/// Options from the table's names and values, checked as the command line checks them.
private func options(_ names: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
                     _ count: Int) throws -> LayoutOptions {
    var options = LayoutOptions()
    try options.set(try pairs(names, values, count))
    try options.validate()
    return options
}

func json(_ value: Any) -> UnsafeMutablePointer<CChar> {
    let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("null".utf8)
    return text(String(decoding: data, as: UTF8.self))
}

@_cdecl("mihiraki_abi_version")
public func mihiraki_abi_version() -> Int32 { MIHIRAKI_ABI_VERSION }

// Made once and never written again or freed: the header promises a static string.
nonisolated(unsafe) private let versionText = strdup(MihirakiRelease.version)!

@_cdecl("mihiraki_version")
public func mihiraki_version() -> UnsafePointer<CChar> { UnsafePointer(versionText) }

@_cdecl("mihiraki_error_message")
public func mihiraki_error_message(_ error: OpaquePointer?) -> UnsafePointer<CChar> {
    UnsafePointer(error.map { errorHandle($0).message } ?? noMessage)
}

@_cdecl("mihiraki_error_kind")
public func mihiraki_error_kind(_ error: OpaquePointer?) -> Int32 { error.map { errorHandle($0).kind } ?? 0 }

@_cdecl("mihiraki_error_free")
public func mihiraki_error_free(_ error: OpaquePointer?) {
    guard let error else { return }
    Unmanaged<ErrorHandle>.fromOpaque(UnsafeRawPointer(error)).release()
}

@_cdecl("mihiraki_string_free")
public func mihiraki_string_free(_ string: UnsafeMutablePointer<CChar>?) { free(string) }

@_cdecl("mihiraki_buffer_free")
public func mihiraki_buffer_free(_ buffer: UnsafeMutablePointer<UInt8>?) { free(buffer) }

@_cdecl("mihiraki_options_json")
public func mihiraki_options_json() -> UnsafeMutablePointer<CChar> {
    json(LayoutOptions.table.map { option -> [String: Any] in
        let kind: String
        switch option.kind {
        case .value: kind = "value"
        case .list: kind = "list"
        case .flag: kind = "flag"
        }
        return ["name": option.name, "kind": kind, "value": option.valueName, "help": option.help]
    })
}

@_cdecl("mihiraki_book_open")
public func mihiraki_book_open(_ path: UnsafePointer<CChar>?, _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    do {
        guard let path else { throw MihirakiError(.usage, "no path given") }
        let handle = BookHandle(try Book.load(FileSystem.path(cString: path)))
        return OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
    } catch {
        fail(error, errorOut)
        return nil
    }
}

@_cdecl("mihiraki_book_open_memory")
public func mihiraki_book_open_memory(_ data: UnsafeRawPointer?, _ size: Int, _ name: UnsafePointer<CChar>?,
                                      _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer? {
    do {
        guard data != nil || size == 0, size >= 0 else { throw MihirakiError(.usage, "no bytes given") }
        let bytes = data.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
        let handle = BookHandle(try Book.load(data: bytes, name: name.map { FileSystem.path(cString: $0) } ?? "book"))
        return OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
    } catch {
        fail(error, errorOut)
        return nil
    }
}

@_cdecl("mihiraki_book_free")
public func mihiraki_book_free(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<BookHandle>.fromOpaque(UnsafeRawPointer(handle)).release()
}

@_cdecl("mihiraki_book_pages_json")
public func mihiraki_book_pages_json(_ handle: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    (try? book(handle)).map { json($0.book.images.map(\.source)) }
}

@_cdecl("mihiraki_book_page_count")
public func mihiraki_book_page_count(_ handle: OpaquePointer?, _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int {
    do {
        return try book(handle).plan(LayoutOptions()).pageCount
    } catch {
        fail(error, errorOut)
        return -1
    }
}

@_cdecl("mihiraki_book_plan_json")
public func mihiraki_book_plan_json(_ handle: OpaquePointer?, _ names: UnsafePointer<UnsafePointer<CChar>?>?,
                                    _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ jobs: Int32,
                                    _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> UnsafeMutablePointer<CChar>? {
    do {
        return text(try book(handle).plan(try options(names, values, count), jobs: jobs).manifest.json)
    } catch {
        fail(error, errorOut)
        return nil
    }
}

@_cdecl("mihiraki_book_spread_count")
public func mihiraki_book_spread_count(_ handle: OpaquePointer?, _ names: UnsafePointer<UnsafePointer<CChar>?>?,
                                       _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ jobs: Int32,
                                       _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int {
    do {
        return try book(handle).plan(try options(names, values, count), jobs: jobs).spreadCount
    } catch {
        fail(error, errorOut)
        return -1
    }
}

@_cdecl("mihiraki_book_spread")
public func mihiraki_book_spread(_ handle: OpaquePointer?, _ names: UnsafePointer<UnsafePointer<CChar>?>?,
                                 _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ jobs: Int32, _ index: Int,
                                 _ pixels: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
                                 _ width: UnsafeMutablePointer<Int32>?, _ height: UnsafeMutablePointer<Int32>?,
                                 _ channels: UnsafeMutablePointer<Int32>?,
                                 _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    do {
        guard let pixels, let width, let height, let channels else {
            throw MihirakiError(.usage, "no place given for the spread's pixels or size (a null pointer)")
        }
        let image = try book(handle).plan(try options(names, values, count), jobs: jobs).spreadAsWritten(at: index)
        guard let buffer = malloc(max(image.pixels.count, 1))?.assumingMemoryBound(to: UInt8.self) else {
            throw MihirakiError(.outOfMemory, "no memory for a \(image.width)×\(image.height) spread")
        }
        image.pixels.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        pixels.pointee = buffer
        width.pointee = Int32(image.width)
        height.pointee = Int32(image.height)
        channels.pointee = Int32(image.channels)
        return 0
    } catch {
        fail(error, errorOut)
        return -1
    }
}

@_cdecl("mihiraki_render")
public func mihiraki_render(_ paths: UnsafePointer<UnsafePointer<CChar>?>?, _ pathCount: Int, _ output: UnsafePointer<CChar>?,
                            _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
                            _ count: Int, _ jobs: Int32, _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ errorOut: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    do {
        guard let output, let paths, pathCount > 0 else { throw MihirakiError(.usage, "no book or no output folder given") }
        let books = try (0..<pathCount).map { index -> String in
            guard let path = paths[index] else { throw MihirakiError(.usage, "book \(index) has no path") }
            return FileSystem.path(cString: path)
        }
        var run = RunOptions()
        run.jobs = jobs > 0 ? Int(jobs) : ProcessInfo.processInfo.activeProcessorCount
        let planned = BookRenderer.plan(books, options: try options(names, values, count), run: run)
        let outcomes = try BookRenderer.render(planned, into: FileSystem.path(cString: output), options: run)
        // One outcome per book given, in order: planned and rendered, or the reason it was not.
        var rows: [[String: Any]] = books.map { ["book": $0, "written": [String](), "error": NSNull()] }
        let failedIndices = books.indices.filter { !planned.pathIndices.contains($0) }
        let failures = planned.notes.compactMap { note -> MihirakiError? in
            if case .failure(let failure) = note { return failure }
            return nil
        }
        for (index, failure) in zip(failedIndices, failures) { rows[index]["error"] = failure.description }
        for (outcome, index) in zip(outcomes, planned.pathIndices) {
            rows[index]["written"] = outcome.written
            rows[index]["folder"] = outcome.folder
            if !outcome.errors.isEmpty { rows[index]["error"] = outcome.errors.map(\.description).joined(separator: "; ") }
        }
        result?.pointee = json(rows)
        return Int32(rows.filter { !($0["error"] is NSNull) }.count)
    } catch {
        fail(error, errorOut)
        return -1
    }
}
