import FeedModel

/// A placeholder image for an item: an SVG of the item's own intrinsic size (points as SVG user
/// units), filled with a colour picked by its kind, with the kind and the size written in the middle.
/// An app under development shows the real aspect ratios before real images exist.
public enum PlaceholderImage {
    /// The SVG text. Sizes below 1 point are drawn as 1 (an empty image would not show).
    public static func svg(for item: Item) -> String {
        let width = max(1, item.width.isFinite ? item.width : 1)
        let height = max(1, item.height.isFinite ? item.height : 1)
        let w = JSONText.number(width)
        let h = JSONText.number(height)
        let label = escapeXML("\(item.kind) \(w)×\(h)")
        let fontSize = JSONText.number(max(8, min(width, height) / 8).rounded())
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)">\
            <rect width="\(w)" height="\(h)" fill="\(color(kind: item.kind))"/>\
            <text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" font-family="sans-serif" \
            font-size="\(fontSize)" fill="#ffffff">\(label)</text></svg>

            """
    }

    /// A hue from the kind's FNV-1a hash (so each kind keeps its colour across runs), as `hsl()`.
    static func color(kind: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in kind.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return "hsl(\(hash % 360),45%,55%)"
    }

    static func escapeXML(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
