import FeedModel
import Foundation

/// The byte-level steps every trace reader shares: UTF-8 decoding that names the first bad byte,
/// line splitting that accepts LF and CRLF, a leading byte-order mark, and JSON parsing whose
/// errors carry a line and column.
enum TraceInput {
    /// The UTF-8 byte-order mark, accepted (and dropped) at the start of every text format.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `data` as text without a leading byte-order mark.
    /// - Throws: ``TraceError/syntax(file:line:column:reason:)`` at the first byte that is not UTF-8.
    static func text(_ data: Data, file: String) throws(TraceError) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: byteOrderMark) { bytes.removeFirst(3) }
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            let position = TextPosition(byteOffset: bad, in: bytes)
            throw .syntax(file: file, line: position.line, column: position.column, reason: "invalid UTF-8 (byte 0x\(String(bytes[bad], radix: 16)))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The lines of `text`, split at LF on Unicode scalars (Swift's `Character` joins CR LF into
    /// one, so a split on `"\n"` characters would never split a CRLF file); a CR before the LF is
    /// dropped, and so is a byte-order mark at the very start. Line `k` (1-based) is element `k − 1`.
    /// - Complexity: O(n).
    static func lines(_ text: String) -> [Substring] {
        // LF and CR are single bytes that never occur inside a multi-byte sequence, so the UTF-8
        // view finds them, and the bytes on either side are scalar boundaries (the generic
        // `split` over the scalar view cost a closure call per scalar).
        let scalars = text.unicodeScalars
        let utf8 = text.utf8
        var lineStart = scalars.startIndex
        if scalars.first == "\u{FEFF}" { lineStart = scalars.index(after: lineStart) }
        var lines: [Substring] = []
        func add(_ end: String.Index) {
            var end = end
            if end > lineStart, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
            lines.append(Substring(scalars[lineStart..<end]))
        }
        var index = lineStart
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "\n") {
                add(index)
                lineStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        add(utf8.endIndex)
        return lines
    }

    /// Parses a JSON document with `JSONSerialization`.
    /// - Throws: ``TraceError/syntax(file:line:column:reason:)`` at the first problem (found by
    ///   ``JSONSyntaxCheck``); ``TraceError/unusable(file:reason:)`` with Foundation's reason in the
    ///   rare case the check finds nothing wrong.
    static func json(_ data: Data, file: String) throws(TraceError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data)
        } catch {
            let bytes = [UInt8](data)
            if let (position, reason) = JSONSyntaxCheck.firstProblemPosition(in: bytes) {
                throw .syntax(file: file, line: position.line, column: position.column, reason: "not JSON: \(reason)")
            }
            throw .unusable(file: file, reason: "not JSON (\(error.localizedDescription))")
        }
    }

    /// The exact integer a JSON number holds, or `nil` for a fraction, a boolean or a magnitude
    /// beyond 2^53 (past which a `Double` no longer holds every integer), so no conversion to
    /// `Int` can trap.
    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double == double.rounded(), abs(double) <= 9_007_199_254_740_992 else { return nil }
        return Int(double)
    }
}
