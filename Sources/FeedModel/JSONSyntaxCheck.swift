/// Finds where a JSON document (RFC 8259) first goes wrong, so a reader that parsed it with
/// `JSONSerialization` (whose errors carry no position a program can read) can name the line and
/// column. Run only after the real parser failed: it validates, it builds nothing.
///
/// It is as lenient as Foundation's parser where that one is lenient (a leading byte-order mark,
/// a trailing comma before `]` or `}`), and stricter nowhere, so the problem it reports is the one
/// that made the parse fail. Nesting deeper than ``maximumDepth`` (Foundation's limit) is a problem
/// too; an iterative scan, so deep input cannot exhaust the stack.
public enum JSONSyntaxCheck {
    /// The first problem: its byte offset and what is wrong there.
    public struct Problem: Equatable, Sendable {
        public var byteOffset: Int
        public var reason: String
    }

    /// The first problem with its line and column in the file, for messages of the form
    /// `file:line:column: not JSON: reason` (every reader of JSON files says it so).
    /// - Returns: `nil` when `bytes` hold one well-formed JSON object or array.
    public static func firstProblemPosition(in bytes: [UInt8]) -> (position: TextPosition, reason: String)? {
        firstProblem(in: bytes).map { (TextPosition(byteOffset: $0.byteOffset, in: bytes), $0.reason) }
    }

    /// Containers nested deeper than this are refused (as `JSONSerialization` does).
    public static let maximumDepth = 512

    /// The first syntax problem in `bytes`, or `nil` when they hold one well-formed JSON object or
    /// array (surrounding whitespace allowed).
    /// - Complexity: O(n) time, O(depth) memory.
    public static func firstProblem(in bytes: [UInt8]) -> Problem? {
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            return Problem(byteOffset: bad, reason: "invalid UTF-8")
        }
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        enum Expect { case value, key, colon, commaOrEnd }
        var stack: [UInt8] = []  // "{" or "["
        var expect = Expect.value
        var sawTopLevel = false
        func problem(_ reason: String) -> Problem { Problem(byteOffset: i, reason: reason) }
        while true {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
            if sawTopLevel, stack.isEmpty {
                return i == bytes.count ? nil : problem("unexpected text after the JSON value")
            }
            guard i < bytes.count else {
                return problem(stack.isEmpty ? "no JSON value (empty input)" : "unexpected end of the file inside \(stack.last == UInt8(ascii: "{") ? "an object" : "an array")")
            }
            let byte = bytes[i]
            switch expect {
            case .value, .key:
                if !sawTopLevel, byte != UInt8(ascii: "{"), byte != UInt8(ascii: "[") {
                    return problem("expected an object or an array")
                }
                sawTopLevel = true
                if expect == .key {
                    if byte == UInt8(ascii: "}") {  // empty object or trailing comma
                        stack.removeLast()
                        i += 1
                        expect = .commaOrEnd
                        continue
                    }
                    guard byte == UInt8(ascii: "\"") else { return problem("expected a key in double quotes") }
                    if let bad = scanString(bytes, &i) { return bad }
                    expect = .colon
                    continue
                }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.count < maximumDepth else { return problem("nested deeper than \(maximumDepth) levels") }
                    stack.append(byte)
                    i += 1
                    expect = byte == UInt8(ascii: "{") ? .key : .value
                case UInt8(ascii: "]") where stack.last == UInt8(ascii: "["):  // empty array or trailing comma
                    stack.removeLast()
                    i += 1
                    expect = .commaOrEnd
                case UInt8(ascii: "\""):
                    if let bad = scanString(bytes, &i) { return bad }
                    expect = .commaOrEnd
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let word: [UInt8] = byte == UInt8(ascii: "t") ? Array("true".utf8) : byte == UInt8(ascii: "f") ? Array("false".utf8) : Array("null".utf8)
                    guard bytes.count - i >= word.count, Array(bytes[i..<i + word.count]) == word else {
                        return problem("unexpected character")
                    }
                    i += word.count
                    expect = .commaOrEnd
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let bad = scanNumber(bytes, &i) { return bad }
                    expect = .commaOrEnd
                default:
                    return problem("unexpected character")
                }
            case .colon:
                guard byte == UInt8(ascii: ":") else { return problem("expected ':' after the key") }
                i += 1
                expect = .value
            case .commaOrEnd:
                let open = stack.last ?? 0
                if byte == UInt8(ascii: ",") {
                    i += 1
                    expect = open == UInt8(ascii: "{") ? .key : .value
                } else if (open == UInt8(ascii: "{") && byte == UInt8(ascii: "}")) || (open == UInt8(ascii: "[") && byte == UInt8(ascii: "]")) {
                    stack.removeLast()
                    i += 1
                } else {
                    return problem(open == UInt8(ascii: "{") ? "expected ',' or '}'" : "expected ',' or ']'")
                }
            }
        }
    }

    /// Scans a string starting at the opening quote; leaves `i` after the closing one.
    private static func scanString(_ bytes: [UInt8], _ i: inout Int) -> Problem? {
        let start = i
        i += 1
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                return nil
            case UInt8(ascii: "\\"):
                guard i + 1 < bytes.count else { return Problem(byteOffset: i, reason: "unterminated escape") }
                let escape = bytes[i + 1]
                if escape == UInt8(ascii: "u") {
                    guard i + 6 <= bytes.count, bytes[i + 2..<i + 6].allSatisfy(isHexDigit) else {
                        return Problem(byteOffset: i, reason: "bad \\u escape")
                    }
                    i += 6
                } else {
                    guard Array("\"\\/bfnrt".utf8).contains(escape) else { return Problem(byteOffset: i, reason: "bad escape") }
                    i += 2
                }
            case 0x00..<0x20:
                return Problem(byteOffset: i, reason: "control character in a string")
            default:
                i += 1
            }
        }
        return Problem(byteOffset: start, reason: "unterminated string")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Scans a number (RFC 8259 grammar); a value beyond `Double` is a problem as in Foundation.
    private static func scanNumber(_ bytes: [UInt8], _ i: inout Int) -> Problem? {
        let start = i
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        func run() -> Int {
            let from = i
            while i < bytes.count, digits.contains(bytes[i]) { i += 1 }
            return i - from
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        guard run() > 0 else { return Problem(byteOffset: i, reason: "digits expected") }
        if bytes[intStart] == UInt8(ascii: "0"), i - intStart > 1 {
            return Problem(byteOffset: intStart, reason: "leading zero in a number")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard run() > 0 else { return Problem(byteOffset: i, reason: "digits expected after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard run() > 0 else { return Problem(byteOffset: i, reason: "digits expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            return Problem(byteOffset: start, reason: "number \(text) is out of range")
        }
        return nil
    }
}
