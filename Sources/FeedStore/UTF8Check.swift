import Foundation

/// Names where invalid UTF-8 sits in item files (the bad byte itself is found by FeedModel's
/// ``UTF8Validation``), so it is refused with its position instead of being stored as U+FFFD.
enum UTF8Check {
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
