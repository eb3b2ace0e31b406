/// JSON text written as UTF-8 bytes straight into one growing buffer: what serve's page answers
/// are built with, since building them as Swift `String`s escaped scalar by scalar
/// (``FeedModel/JSONString/literal(_:)``, ``JSONText``) was about 60 % of the server's CPU per
/// page (`perf` under `feedsim bench http`, 2026-12-01). The bytes are the same as those ways
/// write: strings escaped as RFC 8259 §7 requires (quote, backslash, `\n`, `\r`, `\t` by name, the
/// other control characters as `\u00XX` in lowercase hex, everything else as is), numbers in
/// ``JSONText/number(_:)``'s form.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    /// - Parameter capacity: bytes reserved up front (a page of 20 items is about 6 KB).
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// ASCII text that needs no escaping (keys, punctuation), as is.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// `"key":` — `key` is a literal that needs no escaping.
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A decimal integer.
    /// - Complexity: O(digits), no allocation.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, written from the end
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[index...])
        }
    }

    /// A Double as ``JSONText/number(_:)`` writes it (`390`, `292.5`, `null` for NaN and infinity).
    mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            bytes.append(contentsOf: JSONText.number(value).utf8)
        }
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `text` as a JSON string literal. Runs of bytes that need no escape are copied at once.
    /// - Complexity: O(n) for n UTF-8 bytes.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// UTF-8 bytes (valid, as a Swift string's are) as a JSON string literal.
    mutating func string(utf8 source: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<source.count {
            let byte = source[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index])) }
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                raw("u00")
                hex.withUTF8Buffer {
                    bytes.append($0[Int(byte >> 4)])
                    bytes.append($0[Int(byte & 0x0F)])
                }
            }
        }
        if runStart < source.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
