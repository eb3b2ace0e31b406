/// Where a byte sits in a text file, for error messages: 1-based line and 1-based column (in
/// bytes, so a message can point at a problem even inside invalid UTF-8).
///
/// The readers of traces and item files use it to turn the byte offset of a problem (a JSON
/// syntax error, an invalid UTF-8 sequence) into `file:line:column`.
public struct TextPosition: Equatable, Sendable, CustomStringConvertible {
    /// 0-based offset of the byte in the file.
    public var byteOffset: Int
    /// 1-based line: 1 + the number of LF bytes before the offset.
    public var line: Int
    /// 1-based column: 1 + the number of bytes between the line's start and the offset.
    public var column: Int

    /// Locates `byteOffset` (clamped to `0...bytes.count`) in `bytes`.
    /// - Complexity: O(byteOffset).
    public init(byteOffset: Int, in bytes: some Collection<UInt8>) {
        let offset = min(max(byteOffset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var index = 0
        for byte in bytes.prefix(offset) {
            index += 1
            if byte == 0x0A {
                line += 1
                lineStart = index
            }
        }
        self.byteOffset = offset
        self.line = line
        self.column = offset - lineStart + 1
    }

    /// A position given directly (tests, or a reader that counted itself).
    public init(byteOffset: Int, line: Int, column: Int) {
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}

/// UTF-8 well-formedness (RFC 3629, the Unicode Standard's Table 3-7: no overlong forms, no
/// surrogates, nothing above U+10FFFF), checked without Foundation so the offset of the first bad
/// byte is known.
public enum UTF8Validation {
    /// The 0-based offset of the first byte that does not start or continue a well-formed UTF-8
    /// sequence, or `nil` when all of `bytes` is valid UTF-8.
    /// - Complexity: O(n). Inlinable, so each caller gets a copy specialized for its collection
    ///   (unspecialized, every byte went through a generic iterator: about 280 instructions a byte).
    @inlinable
    public static func firstInvalidByte(in bytes: some Collection<UInt8>) -> Int? {
        var iterator = bytes.makeIterator()
        var offset = 0
        while let lead = iterator.next() {
            let start = offset
            offset += 1
            if lead < 0x80 { continue }
            // Expected continuation count and the allowed range of the first continuation byte.
            let count: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: count = 2; high = 0x9F
            case 0xF0: count = 3; low = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; high = 0x8F
            default: return start
            }
            for k in 0..<count {
                guard let next = iterator.next() else { return start }
                offset += 1
                let (lo, hi): (UInt8, UInt8) = k == 0 ? (low, high) : (0x80, 0xBF)
                guard next >= lo, next <= hi else { return start }
            }
        }
        return nil
    }
}
