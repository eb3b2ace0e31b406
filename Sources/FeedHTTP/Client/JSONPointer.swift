import Foundation

/// An RFC 6901 JSON Pointer (`/data/0/id`; `~1` is `/`, `~0` is `~`; `""` is the whole document),
/// resolved over the values `JSONSerialization` produces.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    public let text: String
    let tokens: [String]

    /// - Throws: ``ConventionError`` when the text is neither empty nor starts with `/`, or holds a
    ///   `~` not followed by `0` or `1` (RFC 6901 §3: `escaped = "~" ( "0" / "1" )`).
    public init(_ text: String) throws {
        guard text.isEmpty || text.hasPrefix("/") else {
            throw ConventionError("JSON Pointer '\(text)' must be empty or start with '/' (RFC 6901)")
        }
        let characters = Array(text)
        for (offset, character) in characters.enumerated() where character == "~" {
            let next = offset + 1 < characters.count ? characters[offset + 1] : nil
            guard next == "0" || next == "1" else {
                let found = next.map { "'~\($0)'" } ?? "'~' at its end"
                throw ConventionError(
                    "JSON Pointer '\(text)' has \(found) at character \(offset + 1): after '~' only '0' (for '~') "
                        + "or '1' (for '/') may follow (RFC 6901)")
            }
        }
        self.text = text
        tokens = text.isEmpty
            ? []
            : text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
    }

    public var description: String { text.isEmpty ? "(the whole document)" : text }

    /// The value the pointer names in `document`, or `nil` when a step is missing. An array step
    /// must be a decimal index without leading zeros (RFC 6901 §4).
    public func resolve(_ document: Any) -> Any? {
        var current = document
        for token in tokens {
            if let object = current as? [String: Any] {
                guard let next = object[token] else { return nil }
                current = next
            } else if let array = current as? [Any] {
                guard let index = Int(token), String(index) == token, index >= 0, index < array.count else { return nil }
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }
}
