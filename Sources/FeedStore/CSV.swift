import FeedModel
import Foundation

/// Writes items as CSV with the store's column names (the format `feedsim import --format csv` reads).
public enum ItemCSV {
    /// CSV text: a header of `columns`, then one line per item, LF line ends.
    /// - Parameter columns: a subset of ``ItemImporter/columns``, in output order.
    public static func render(_ items: [NewItem], columns: [String]) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for item in items {
            let fields = columns.map { column -> String in
                switch column {
                case "id": return item.id.map(String.init) ?? ""
                case "published_at": return String(item.publishedAt)
                case "kind": return quote(item.kind)
                case "width": return number(item.width)
                case "height": return number(item.height)
                case "title": return quote(item.title)
                case "author": return quote(item.author)
                case "payload": return quote(item.payload)
                default: preconditionFailure("unknown column \(column)")
                }
            }
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// Whole numbers without a decimal point (`320`, not `320.0`).
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func quote(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
