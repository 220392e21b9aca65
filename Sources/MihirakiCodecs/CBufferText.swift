extension String {
    /// The text of a NUL-terminated C buffer (a C call's message, a host
    /// name), up to its first NUL, read as UTF-8.
    package init(terminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
