import FeedModel
import Foundation

/// Reads saved responses of the Wikimedia REST feed API (English Wikipedia app test data):
///
/// - "On this day": an object whose keys are sections (`selected`, `events`, `births`, `deaths`,
///   `holidays`), each an array of entries `{text, year?, pages: [page]}`;
/// - "Most read": an object with `articles: [page]` (kind `mostread`).
///
/// Mapping per page card: `pageid` → id, `timestamp` (last edit, ISO 8601) → published_at,
/// `thumbnail.width/height` → width/height, section → kind, `displaytitle` → title (HTML markup
/// such as `<i>` kept as is), author "Wikipedia contributors", payload `{description, section,
/// year?, views?, rank?, image}`. A page that appears in several cards is imported once, with the
/// kind of its first card (sections in the order above, cards in file order).
///
/// A page without a thumbnail gets ``textCardSize``: the feed API's 320-point thumbnail width and
/// an assumed 120-point text card; its payload says `"image": false`.
public enum WikimediaImporter {
    /// Sections of an "On this day" response, in import order.
    public static let sections = ["selected", "events", "births", "deaths", "holidays"]
    /// Size given to a page card without a thumbnail (points): width 320 (the API's thumbnail
    /// width), height 120 (an assumption: a text-only card).
    public static let textCardSize = (width: 320.0, height: 120.0)
    public static let author = "Wikipedia contributors"

    /// - Throws: ``ImportError`` with the entry path (`births[3].pages[0]`) and field.
    public static func parse(_ data: Data, file: String) throws -> [NewItem] {
        let parsed = try ItemImporter.json(data, file: file, location: nil)
        guard let root = parsed as? [String: Any] else {
            throw ImportError(file: file, location: "", field: "", reason: "not a JSON object (the file holds \(ItemImporter.kindOfJSON(parsed)))")
        }
        var items: [NewItem] = []
        var seen: Set<Int64> = []
        func add(_ page: Any, kind: String, year: Any?, location: String) throws {
            let item = try makeItem(page, kind: kind, year: year, file: file, location: location)
            if let id = item.id, seen.insert(id).inserted { items.append(item) }
        }
        if let articles = root["articles"] {
            guard let list = articles as? [Any] else {
                throw ImportError(file: file, location: "", field: "articles", reason: "expected an array")
            }
            for (index, page) in list.enumerated() {
                try add(page, kind: "mostread", year: nil, location: "articles[\(index)]")
            }
            return items
        }
        let present = sections.filter { root[$0] != nil }
        guard !present.isEmpty else {
            throw ImportError(
                file: file, location: "", field: "",
                reason:
                    "not a Wikimedia feed response (expected 'articles' or sections \(sections.joined(separator: ", ")))"
            )
        }
        for section in present {
            guard let entries = root[section] as? [Any] else {
                throw ImportError(file: file, location: "", field: section, reason: "expected an array")
            }
            for (entryIndex, entryValue) in entries.enumerated() {
                let at = "\(section)[\(entryIndex)]"
                guard let entry = entryValue as? [String: Any] else {
                    throw ImportError(file: file, location: at, field: "", reason: "expected an object")
                }
                guard let pages = entry["pages"] as? [Any] else {
                    throw ImportError(file: file, location: at, field: "pages", reason: "missing or not an array")
                }
                for (pageIndex, page) in pages.enumerated() {
                    try add(page, kind: section, year: entry["year"], location: "\(at).pages[\(pageIndex)]")
                }
            }
        }
        return items
    }

    static func makeItem(_ value: Any, kind: String, year: Any?, file: String, location: String) throws -> NewItem {
        func fail(_ field: String, _ reason: String) -> ImportError {
            ImportError(file: file, location: location, field: field, reason: reason)
        }
        guard let page = value as? [String: Any] else { throw fail("", "expected an object") }
        guard let idNumber = page["pageid"] as? NSNumber, !idNumber.isJSONBoolean,
            idNumber.doubleValue == idNumber.doubleValue.rounded(), idNumber.int64Value > 0
        else { throw fail("pageid", "missing or not a positive integer") }
        guard let stamp = page["timestamp"] as? String else { throw fail("timestamp", "missing") }
        guard let publishedAt = Timestamp.milliseconds(iso8601: stamp) else {
            throw fail("timestamp", "expected ISO 8601 time, got '\(stamp)'")
        }
        let title =
            (page["displaytitle"] as? String) ?? (page["normalizedtitle"] as? String)
            ?? (page["title"] as? String)
        guard let title else { throw fail("displaytitle", "missing") }
        var width = textCardSize.width
        var height = textCardSize.height
        var payload: [String: Any] = ["section": kind, "image": false]
        if let thumbnail = page["thumbnail"] {
            guard let thumb = thumbnail as? [String: Any], let w = thumb["width"] as? NSNumber,
                let h = thumb["height"] as? NSNumber, w.doubleValue > 0, h.doubleValue > 0
            else { throw fail("thumbnail", "expected positive width and height") }
            width = w.doubleValue
            height = h.doubleValue
            payload["image"] = true
        }
        if let description = page["description"] as? String { payload["description"] = description }
        if let year = year as? NSNumber { payload["year"] = year }
        if let views = page["views"] as? NSNumber { payload["views"] = views }
        if let rank = page["rank"] as? NSNumber { payload["rank"] = rank }
        let json = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data("{}".utf8)
        return NewItem(
            id: idNumber.int64Value, publishedAt: publishedAt, kind: kind, width: width, height: height,
            title: title, author: author, payload: String(decoding: json, as: UTF8.self))
    }
}
