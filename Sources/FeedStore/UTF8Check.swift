import Foundation

/// Finds invalid UTF-8 in item files, so a bad byte is refused with its position instead of being
/// stored as U+FFFD (the Unicode Standard, table 3-7, "Well-Formed UTF-8 Byte Sequences").
enum UTF8Check {
    /// The offset of the first byte that does not start a well-formed sequence, `nil` when all are.
    /// - Complexity: O(n).
    static func firstInvalidByte<C: Collection>(in bytes: C) -> Int? where C.Element == UInt8 {
        let b = Array(bytes)
        var i = 0
        while i < b.count {
            let lead = b[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            var need = 0
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; second = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; second = 0x80...0x9F
            case 0xF0: need = 3; second = 0x90...0xBF
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; second = 0x80...0x8F
            default: return i
            }
            guard i + need < b.count, second.contains(b[i + 1]) else { return i }
            for k in stride(from: 2, through: need, by: 1) where !(0x80...0xBF).contains(b[i + k]) { return i }
            i += need + 1
        }
        return nil
    }

    /// The key whose string value holds the replacement character in a JSON object line decoded
    /// with replacement (where the bad bytes were), or `nil`.
    static func jsonField(in text: String) -> String? {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object.keys.sorted().first { key in
            (object[key] as? String)?.contains("\u{FFFD}") == true || key.contains("\u{FFFD}")
        }
    }

    /// The 1-based line and 0-based field index of byte `offset` in a CSV file (RFC 4180 quotes:
    /// a comma or newline inside quotes belongs to the field).
    static func csvPosition(of offset: Int, in bytes: [UInt8]) -> (line: Int, field: Int) {
        var line = 1
        var field = 0
        var quoted = false
        for byte in bytes[..<offset] {
            switch byte {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: ","): if !quoted { field += 1 }
            case UInt8(ascii: "\n"):
                line += 1
                if !quoted { field = 0 }
            default: break
            }
        }
        return (line, field)
    }
}
