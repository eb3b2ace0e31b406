/// Hands out one `String` per distinct short text seen, so a column with a handful of values (an
/// item's kind: its reuse identifier, such as `"photo"` or `"ad"`) is not decoded again for every
/// row: the bytes are compared with the texts seen so far and the kept `String` is returned.
///
/// Keeps at most ``capacity`` texts of at most ``maxLength`` bytes; others are decoded each time.
struct TextInterner {
    /// Most texts kept.
    static let capacity = 16
    /// Longest text kept, bytes.
    static let maxLength = 32

    private var entries: [(bytes: [UInt8], string: String)] = []

    /// The text of `bytes` (UTF-8; invalid sequences repaired as `String(decoding:as:)` does).
    /// - Complexity: O(``capacity`` × ``maxLength``) at most.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        for entry in entries where entry.bytes.count == bytes.count {
            // Short texts: a byte loop, cheaper than a call to memcmp.
            let same = entry.bytes.withUnsafeBufferPointer { kept in
                for offset in 0..<bytes.count where kept[offset] != bytes[offset] { return false }
                return true
            }
            if same { return entry.string }
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if entries.count < Self.capacity && bytes.count <= Self.maxLength {
            entries.append((Array(bytes), string))
        }
        return string
    }
}
