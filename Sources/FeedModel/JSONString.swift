/// JSON string literals for the JSON FeedSim writes by hand (trace lines, the HTTP API's answers,
/// Perfetto traces).
public enum JSONString {
    /// `text` as a JSON string literal: quote, backslash and control characters escaped as
    /// RFC 8259 §7 requires (`\n`, `\r`, `\t` by name, the others as `\u00XX`, lowercase hex);
    /// everything else as is.
    /// - Complexity: O(n) for n Unicode scalars.
    public static func literal(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
