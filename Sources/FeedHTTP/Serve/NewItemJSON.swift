import FeedModel
import Foundation

/// Items to insert, read from a request body: `{"items": [ITEM, ...]}` or one `ITEM`, where
/// `ITEM` is `{"id"?: int, "published_at": int (Unix ms), "kind": string, "width": number,
/// "height": number, "title"?: string, "author"?: string, "payload"?: string or object}`.
enum NewItemJSON {
    struct Failure: Error {
        var field: String
        var message: String
    }

    /// Most items one request may insert.
    static let maximumItems = 1000

    static func parse(_ body: [UInt8]) throws -> [NewItem] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(body), options: [])
        } catch {
            throw Failure(field: "body", message: "the body is not JSON")
        }
        guard let object = value as? [String: Any] else { throw Failure(field: "body", message: "expected a JSON object") }
        if let list = object["items"] {
            guard let array = list as? [Any], (1...maximumItems).contains(array.count) else {
                throw Failure(field: "items", message: "items must be an array of 1...\(maximumItems) objects")
            }
            return try array.enumerated().map { index, element in
                guard let item = element as? [String: Any] else {
                    throw Failure(field: "items[\(index)]", message: "items[\(index)] must be an object")
                }
                return try newItem(item, prefix: "items[\(index)].")
            }
        }
        return [try newItem(object, prefix: "")]
    }

    static func newItem(_ object: [String: Any], prefix: String) throws -> NewItem {
        func fail(_ field: String, _ what: String) -> Failure {
            Failure(field: prefix + field, message: "\(prefix + field) must be \(what)")
        }
        /// An integer in `range` (as `feedsim import` bounds it: ``FeedModel/NewItem``'s ranges).
        /// An integer literal is read exactly (JSONSerialization keeps it as an integer; through
        /// `doubleValue` 9007199254740993 became 9007199254740992); a number with a fraction or an
        /// exponent is a double, an integer only when whole and below 9·10^15 (where it is exact).
        func integer(_ field: String, in range: ClosedRange<Int64>, _ what: String) throws -> Int64? {
            guard let raw = object[field] else { return nil }
            let expected = "\(what) in \(range.lowerBound)...\(range.upperBound)"
            guard let number = raw as? NSNumber, !isBool(number) else { throw fail(field, expected) }
            let value: Int64?
            switch String(cString: number.objCType) {
            case "d", "f":
                let double = number.doubleValue
                value = double.rounded() == double && abs(double) < 9.0e15 ? Int64(double) : nil
            default:
                value = Int64(number.stringValue)
            }
            guard let value, range.contains(value) else { throw fail(field, expected) }
            return value
        }
        func size(_ field: String) throws -> Double {
            let range = NewItem.sizeRange
            guard let number = object[field] as? NSNumber, !isBool(number), number.doubleValue.isFinite,
                range.contains(number.doubleValue)
            else { throw fail(field, "a number of points, more than 0 and at most \(Int(range.upperBound))") }
            return number.doubleValue
        }
        func text(_ field: String, required: Bool = false, maxLength: Int = NewItem.textMaxLength) throws -> String? {
            guard let raw = object[field] else {
                if required { throw fail(field, "a string") }
                return nil
            }
            guard let value = raw as? String, value.unicodeScalars.count <= maxLength else {
                throw fail(field, "a string of at most \(maxLength) characters")
            }
            return value
        }
        let id = try integer("id", in: NewItem.idRange, "an integer")
        let publishedAtWhat = "an integer of Unix milliseconds (1970-01-01 to 9999-12-31)"
        guard let publishedAt = try integer("published_at", in: NewItem.publishedAtRange, publishedAtWhat) else {
            throw fail("published_at", "\(publishedAtWhat) in \(NewItem.publishedAtRange.lowerBound)...\(NewItem.publishedAtRange.upperBound)")
        }
        guard let kind = try text("kind", required: true, maxLength: NewItem.kindMaxLength), !kind.isEmpty else {
            throw fail("kind", "a non-empty string of at most \(NewItem.kindMaxLength) characters")
        }
        var payload = "{}"
        if let raw = object["payload"] {
            if let string = raw as? String {
                payload = string
            } else if raw is [String: Any] || raw is [Any],
                let data = try? JSONSerialization.data(withJSONObject: raw, options: [.sortedKeys])
            {
                payload = String(decoding: data, as: UTF8.self)
            } else {
                throw fail("payload", "a string or a JSON object")
            }
        }
        return NewItem(
            id: id, publishedAt: publishedAt, kind: kind, width: try size("width"), height: try size("height"),
            title: try text("title") ?? "", author: try text("author") ?? "", payload: payload)
    }

    /// `{"items": [...]}` in the shape ``parse(_:)`` reads (ids only where given).
    static func encode(_ items: [NewItem]) -> String {
        let list = items.map { item -> String in
            var object = JSONText.Object()
            if let id = item.id { object.add("id", id) }
            object.add("published_at", item.publishedAt)
            object.add("kind", item.kind)
            object.add("width", item.width)
            object.add("height", item.height)
            object.add("title", item.title)
            object.add("author", item.author)
            object.add("payload", item.payload)
            return object.json
        }
        return "{\"items\":[" + list.joined(separator: ",") + "]}"
    }

    /// JSONSerialization gives booleans as NSNumber too (type encoding `c`, a C char), so
    /// `true` must not pass for the integer 1.
    static func isBool(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
