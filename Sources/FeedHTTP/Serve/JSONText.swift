import FeedModel

/// Builds JSON text by hand for the API's responses: keys in the order added, strings escaped as
/// RFC 8259 §7 requires (quote, backslash and control characters), numbers in their shortest form.
enum JSONText {
    /// `text` as a JSON string literal (``FeedModel/JSONString/literal(_:)``).
    static func string(_ text: String) -> String { JSONString.literal(text) }

    /// A Double as JSON: an integer when it is whole (`390`, not `390.0`); JSON has no NaN or infinity (`null`).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// An object under construction.
    struct Object {
        private(set) var text = ""
        private var count = 0

        private mutating func key(_ name: String) {
            text += count == 0 ? "{" : ","
            text += string(name) + ":"
            count += 1
        }
        mutating func add(_ name: String, _ value: String) { key(name); text += string(value) }
        mutating func add(_ name: String, _ value: String?) { key(name); text += value.map(string) ?? "null" }
        mutating func add(_ name: String, _ value: Int) { key(name); text += String(value) }
        mutating func add(_ name: String, _ value: Int64) { key(name); text += String(value) }
        mutating func add(_ name: String, _ value: Double) { key(name); text += number(value) }
        mutating func add(_ name: String, _ value: Bool) { key(name); text += value ? "true" : "false" }
        /// `raw` must be JSON text already.
        mutating func addRaw(_ name: String, _ raw: String) { key(name); text += raw }
        /// The finished object.
        var finished: String { count == 0 ? "{}" : text + "}" }
    }
}

extension JSONText.Object {
    /// The object's JSON text.
    var json: String { finished }
}
