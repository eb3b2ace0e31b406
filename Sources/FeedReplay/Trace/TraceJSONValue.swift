/// A JSON value as read from one trace line, by a small parser that, unlike `JSONSerialization`,
/// keeps the key under which a bad number (`NaN`, `Infinity`, `1e999`) appeared so the error can
/// name the field.
enum TraceJSONValue: Equatable {
    case number(Double)
    /// `NaN`, `Infinity`, `-Infinity` or a number too large for a `Double`: kept so the reader can
    /// name the field instead of failing on the line.
    case nonFinite(String)
    case string(String)
    case bool(Bool)
    case null
    case array([TraceJSONValue])
    case object([String: TraceJSONValue])

    /// A short name of the value's type for error messages.
    var typeDescription: String {
        switch self {
        case .number, .nonFinite: "a number"
        case .string: "a string"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a line is not JSON, with the 0-based byte column.
struct TraceJSONSyntaxError: Error, Equatable {
    var column: Int
    var reason: String
}

/// A recursive-descent JSON parser over UTF-8 bytes (RFC 8259), plus the non-finite tokens above.
struct TraceJSONParser {
    private let bytes: [UInt8]
    private var index = 0

    /// Parses `text`, which must hold exactly one JSON value (surrounding whitespace allowed).
    /// - Complexity: O(n) in the length of `text`.
    static func parse(_ text: Substring) throws(TraceJSONSyntaxError) -> TraceJSONValue {
        var parser = TraceJSONParser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ reason: String) -> TraceJSONSyntaxError {
        TraceJSONSyntaxError(column: index, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(TraceJSONSyntaxError) -> TraceJSONValue {
        guard depth < 32 else { throw error("nested too deeply") }
        skipWhitespace()
        guard index < bytes.count else { throw error("expected a value, found the end of the line") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "N"): try literal("NaN"); return .nonFinite("NaN")
        case UInt8(ascii: "I"): try literal("Infinity"); return .nonFinite("Infinity")
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws(TraceJSONSyntaxError) {
        let expected = word.utf8
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw error("unexpected character")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(TraceJSONSyntaxError) -> TraceJSONValue {
        index += 1
        // Room for an event line's fields: growing from empty rehashed the members twice per line.
        var members: [String: TraceJSONValue] = [:]
        members.reserveCapacity(6)
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            guard members[key] == nil else { throw error("duplicate key '\(key)'") }
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(TraceJSONSyntaxError) -> TraceJSONValue {
        index += 1
        var elements: [TraceJSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(TraceJSONSyntaxError) -> String {
        index += 1
        // Most strings hold no escape: up to the closing quote, the bytes are the string.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { throw error("bad \\u escape") }
                    index += 4
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default:
                    throw error("bad escape")
                }
            case 0x00..<0x20:
                throw error("control character in a string")
            default:
                run.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func number() throws(TraceJSONSyntaxError) -> TraceJSONValue {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
                try literal("Infinity")
                return .nonFinite("-Infinity")
            }
        }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let intStart = index
        while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
        guard index > intStart else { throw error("unexpected character") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fracStart = index
            while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
            guard index > fracStart else { throw error("digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let expStart = index
            while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
            guard index > expStart else { throw error("digits expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text) else { throw error("bad number '\(text)'") }
        return number.isFinite ? .number(number) : .nonFinite(text)
    }
}
