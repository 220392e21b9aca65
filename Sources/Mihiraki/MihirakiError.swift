import Foundation

/// An error a user sees: one line naming the file and the reason.
public struct MihirakiError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        /// A page could not be decoded (damaged, truncated, unsupported, too large).
        case badPage
        /// A book has no pages, or is not a folder Mihiraki can read.
        case badBook
        /// Reading or writing a file failed.
        case io
        /// Options that contradict each other or the book.
        case usage
    }

    public var code: Code
    /// The file or folder the error is about, if any.
    public var path: String?
    public var message: String

    public init(_ code: Code, path: String? = nil, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `path: message`, on one line.
    public var description: String {
        let line = path.map { "\($0): \(message)" } ?? message
        return line.replacingOccurrences(of: "\n", with: " ")
    }
}
