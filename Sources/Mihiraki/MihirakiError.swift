import Foundation
import MihirakiCodecs

/// Every error Mihiraki reports: what kind of failure, which file, why, and
/// the lower-level error behind it when there is one.
///
/// ``description`` is the one line a user sees, `path: message`.
public struct MihirakiError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, for programs that react to it.
    public enum Code: String, Hashable, Sendable {
        /// A page's data is damaged or truncated.
        case badPage
        /// A page is well formed, but in a format or with a feature Mihiraki does not read.
        case unsupportedPage
        /// A page, or a canvas, has more pixels than the limit allows.
        case tooLarge
        /// Memory for a page could not be allocated.
        case outOfMemory
        /// A book has no pages, or is not a folder or archive Mihiraki can read.
        case badBook
        /// Reading or writing a file failed.
        case io
        /// Options that contradict each other, the book, or the limits.
        case usage
        /// A render ran past the deadline it was given and was stopped.
        case timedOut
    }

    /// The kind of failure.
    public var code: Code
    /// The file or folder the error is about (`book/p1.png`, `vol.cbz:p1.png`), if any.
    public var path: String?
    /// Why, in one line, without the path.
    public var message: String
    /// The error that caused this one, such as a decoder's, when there is one.
    public var underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - path: the file or folder it is about.
    ///   - message: why, in one line.
    ///   - underlying: the lower-level error that caused it.
    public init(_ code: Code, path: String? = nil, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.underlying = underlying
    }

    /// `path: message`, on one line; a path's bytes that are not UTF-8
    /// shown as `\xFF`.
    public var description: String {
        let line = path.map { "\(PathBytes.shown($0)): \(message)" } ?? message
        return line.replacingOccurrences(of: "\n", with: " ")
    }
}

extension MihirakiError {
    /// The one place a decoder's or encoder's error becomes a Mihiraki error:
    /// its kind carries over as the code, the error itself as the cause.
    init(_ codecError: CodecError, path: String) {
        let code: Code
        switch codecError.code {
        case .corrupt: code = .badPage
        case .unsupported: code = .unsupportedPage
        case .tooLarge: code = .tooLarge
        case .outOfMemory: code = .outOfMemory
        }
        self.init(code, path: path, codecError.message, underlying: codecError)
    }

    /// Runs `body`, turning a `CodecError` into a `MihirakiError` about `path`.
    static func wrapping<T>(path: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CodecError {
            throw MihirakiError(error, path: path())
        }
    }
}

extension MihirakiError {
    /// `error` itself when it is a Mihiraki error; otherwise an I/O error about
    /// `path` that keeps it as the cause. Nothing a worker catches is dropped.
    static func from(_ error: any Error, path: String) -> MihirakiError {
        if let error = error as? MihirakiError { return error }
        if let error = error as? CodecError { return MihirakiError(error, path: path) }
        return MihirakiError(.io, path: path, "\(error)", underlying: error)
    }
}

extension MihirakiError: Equatable {
    /// Two errors are equal when they say the same thing about the same file;
    /// the underlying cause is not compared.
    public static func == (lhs: MihirakiError, rhs: MihirakiError) -> Bool {
        lhs.code == rhs.code && lhs.path == rhs.path && lhs.message == rhs.message
    }
}
