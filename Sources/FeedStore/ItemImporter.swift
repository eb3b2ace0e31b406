import FeedModel
import Foundation

/// The file formats `feedsim import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// JSON Lines: one object per line with the store's column names.
    case jsonl
    /// CSV with a header row of the store's column names (RFC 4180 quoting).
    case csv
    /// A saved response of the Wikimedia REST feed API ("On this day" or "Most read").
    case wikimedia
}

/// A bad input record: names the file, where in it (line or JSON entry path) and the field.
public struct ImportError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    /// `line 12`, or an entry path such as `births[3].pages[0]`.
    public var location: String
    public var field: String
    public var reason: String

    public init(file: String, location: String, field: String, reason: String) {
        self.file = file
        self.location = location
        self.field = field
        self.reason = reason
    }

    public var description: String {
        var text = file
        if !location.isEmpty { text += ": \(location)" }
        if !field.isEmpty { text += ": field '\(field)'" }
        return text + ": \(reason)"
    }
}

/// Reads item files into ``NewItem``s. Parsing finishes before anything is written, so a bad row
/// means nothing is imported.
///
/// Every stored number is bounded here, naming the file, line and field when it is not:
/// `published_at` within ``Timestamp/storedRange`` (1970-01-01 to 9999-12-31 in Unix ms), sizes
/// in ``FeedModel/NewItem/sizeRange`` (0 < s ≤ 1,000,000 pt, what the layouts accept), ids in
/// ``FeedModel/NewItem/idRange`` (the same bounds as `feedsim serve`'s `POST`). Text must
/// be valid UTF-8 (never stored as U+FFFD).
public enum ItemImporter {

    /// The columns a CSV header or a JSON Lines object may use; `published_at`, `kind`, `width`
    /// and `height` are required, the others optional (`id` empty or absent: assigned by SQLite).
    public static let columns = ["id", "published_at", "kind", "width", "height", "title", "author", "payload"]
    static let requiredColumns: Set<String> = ["published_at", "kind", "width", "height"]

    /// Reads and parses `url`.
    /// - Throws: ``ImportError`` naming the file, line or entry, and field.
    public static func read(_ url: URL, format: ImportFormat) throws -> [NewItem] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImportError(file: url.path, location: "", field: "", reason: "cannot read file")
        }
        return try parse(data, format: format, file: url.path)
    }

    /// Parses `data` (named `file` in errors).
    public static func parse(_ data: Data, format: ImportFormat, file: String) throws -> [NewItem] {
        switch format {
        case .jsonl: return try parseJSONLines(data, file: file)
        case .csv: return try parseCSV(data, file: file)
        case .wikimedia: return try WikimediaImporter.parse(data, file: file)
        }
    }

    /// Builds an item from named text-or-number fields, checking each one.
    static func makeItem(
        _ fields: [String: Any], file: String, location: String
    ) throws -> NewItem {
        func fail(_ field: String, _ reason: String) -> ImportError {
            ImportError(file: file, location: location, field: field, reason: reason)
        }
        for key in fields.keys where !columns.contains(key) {
            throw fail(key, "unknown column (known: \(columns.joined(separator: ", ")))")
        }
        for key in requiredColumns.sorted() where fields[key] == nil || fields[key] is NSNull {
            throw fail(key, "missing")
        }
        func integer(_ key: String) throws -> Int64? {
            switch fields[key] {
            case nil, is NSNull: return nil
            case let text as String where text.isEmpty && key == "id": return nil
            case let text as String:
                guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                    throw fail(key, "expected an integer, got '\(text)'")
                }
                return try bounded(key, value, text)
            case let number as NSNumber:
                let double = number.doubleValue
                guard !number.isJSONBoolean, double.rounded() == double else {
                    throw fail(key, "expected an integer, got \(number)")
                }
                // Past 9·10^15 a JSON number read as a double may not be the integer written.
                guard abs(double) < 9.0e15 else {
                    throw fail(key, "\(number) is out of range: a JSON number must stay below 9000000000000000 (write it as a string for larger values)")
                }
                return try bounded(key, number.int64Value, "\(number)")
            default: throw fail(key, "expected an integer")
            }
        }
        func bounded(_ key: String, _ value: Int64, _ text: String) throws -> Int64 {
            if key == "published_at", !Timestamp.storedRange.contains(value) {
                throw fail(
                    key, "expected Unix milliseconds from 1970-01-01 to 9999-12-31 (0...\(Timestamp.storedRange.upperBound)), got \(text)")
            }
            if key == "id", !NewItem.idRange.contains(value) {
                throw fail(key, "expected an id in \(NewItem.idRange.lowerBound)...\(NewItem.idRange.upperBound), got \(text)")
            }
            return value
        }
        func size(_ key: String) throws -> Double {
            let value: Double?
            switch fields[key] {
            case let text as String:
                // Decimal only: Double("0x10") is 16 and Double("0x1p-3") 0.125.
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                value = trimmed.unicodeScalars.allSatisfy { "0123456789+-.eE".unicodeScalars.contains($0) } ? Double(trimmed) : nil
            case let number as NSNumber where !number.isJSONBoolean: value = number.doubleValue
            default: value = nil
            }
            // NewItem.sizeRange: more than 0 (ulpOfOne) and at most 1000000.
            let rule = "expected a size in points, more than 0 and at most 1000000"
            guard let value, value.isFinite else { throw fail(key, rule) }
            guard NewItem.sizeRange.contains(value) else {
                throw fail(key, "\(rule), got \(value.rounded() == value && abs(value) < 9.0e15 ? String(Int64(value)) : String(value))")
            }
            return value
        }
        func text(_ key: String) throws -> String {
            switch fields[key] {
            case nil, is NSNull: return ""
            case let text as String: return text
            default: throw fail(key, "expected text")
            }
        }
        guard let publishedAt = try integer("published_at") else { throw fail("published_at", "missing") }
        let kind = try text("kind")
        guard !kind.isEmpty else { throw fail("kind", "must not be empty") }
        var payload = "{}"
        switch fields["payload"] {
        case nil, is NSNull: break
        case let text as String where text.isEmpty: break
        case let text as String:
            guard (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil else {
                throw fail("payload", "not JSON text")
            }
            payload = text
        case let object?:
            guard JSONSerialization.isValidJSONObject(object),
                let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            else { throw fail("payload", "expected a JSON object or JSON text") }
            payload = String(decoding: data, as: UTF8.self)
        }
        let item = NewItem(
            id: try integer("id"), publishedAt: publishedAt, kind: kind, width: try size("width"),
            height: try size("height"), title: try text("title"), author: try text("author"), payload: payload)
        // The lengths serve's POST keeps too (the numbers were checked above, with their text).
        if let (field, rule) = item.boundsViolation { throw fail(field, "expected \(rule)") }
        return item
    }

    /// Where each id given so far appeared, to name a repeated id's line and its first one.
    struct GivenIDs {
        private var locations: [Int64: String] = [:]

        /// - Throws: ``ImportError`` at `location` when `item`'s id was given before.
        mutating func note(_ item: NewItem, file: String, location: String) throws {
            guard let id = item.id else { return }
            if let first = locations[id] {
                throw ImportError(
                    file: file, location: location, field: "id",
                    reason: "item id \(id) is twice in the file (first on \(first)); ids are unique across feeds")
            }
            locations[id] = location
        }
    }

    static func parseJSONLines(_ data: Data, file: String) throws -> [NewItem] {
        var items: [NewItem] = []
        var given = GivenIDs()
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let offset = UTF8Validation.firstInvalidByte(in: line) {
                throw ImportError(
                    file: file, location: "line \(lineNumber)", field: UTF8Check.jsonField(in: text) ?? "",
                    reason: "invalid UTF-8 at byte \(offset + 1) of the line")
            }
            if text.isEmpty { continue }
            let value = try json(Data(text.utf8), file: file, location: "line \(lineNumber)")
            guard let object = value as? [String: Any] else {
                throw ImportError(
                    file: file, location: "line \(lineNumber)", field: "", reason: "not a JSON object (found \(kindOfJSON(value)))")
            }
            // JSONSerialization keeps the last of two equal keys; a CSV header naming a column twice is refused, so is this.
            if let key = firstRepeatedKey(inObject: Array(text.utf8)) {
                throw ImportError(file: file, location: "line \(lineNumber)", field: key, reason: "key given twice in the object")
            }
            let item = try makeItem(object, file: file, location: "line \(lineNumber)")
            try given.note(item, file: file, location: "line \(lineNumber)")
            items.append(item)
        }
        return items
    }

    static func parseCSV(_ data: Data, file: String) throws -> [NewItem] {
        // A leading byte-order mark (as spreadsheet programs write) is not part of the first column's name.
        let bytes = [UInt8](data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data)
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ImportError(file: file, location: "line \(error.line)", field: "", reason: error.reason)
        }
        guard let header = records.first else {
            throw ImportError(file: file, location: "line 1", field: "", reason: "empty file: expected a header row")
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        if let offset = UTF8Validation.firstInvalidByte(in: bytes) {
            let (line, column) = UTF8Check.csvPosition(of: offset, in: bytes)
            throw ImportError(
                file: file, location: "line \(line)", field: column < names.count ? names[column] : "",
                reason: "invalid UTF-8 (byte \(offset + 1) of the file)")
        }
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw ImportError(file: file, location: "line 1", field: name, reason: "column given twice in the header")
        }
        for name in names where !columns.contains(name) {
            throw ImportError(
                file: file, location: "line 1", field: name,
                reason: "unknown column (known: \(columns.joined(separator: ", ")))")
        }
        for name in requiredColumns.sorted() where !names.contains(name) {
            throw ImportError(file: file, location: "line 1", field: name, reason: "missing column")
        }
        var items: [NewItem] = []
        var given = GivenIDs()
        for record in records.dropFirst() {
            if record.fields == [""] { continue }  // blank line
            guard record.fields.count == names.count else {
                throw ImportError(
                    file: file, location: "line \(record.line)", field: "",
                    reason: "expected \(names.count) fields, found \(record.fields.count)")
            }
            let fields = Dictionary(uniqueKeysWithValues: zip(names, record.fields.map { $0 as Any }))
            let item = try makeItem(fields, file: file, location: "line \(record.line)")
            try given.note(item, file: file, location: "line \(record.line)")
            items.append(item)
        }
        return items
    }
}

extension ItemImporter {
    /// Parses JSON text with `JSONSerialization`; on failure names the first problem's place
    /// (``JSONSyntaxCheck``): `line L, column C` of the file, or the column within `location`'s line.
    /// - Throws: ``ImportError``.
    static func json(_ data: Data, file: String, location: String?) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let bytes = [UInt8](data)
            guard let (position, reason) = JSONSyntaxCheck.firstProblemPosition(in: bytes) else {
                throw ImportError(file: file, location: location ?? "", field: "", reason: "not JSON (\(error.localizedDescription))")
            }
            let place = location.map { "\($0), column \(position.column)" } ?? "\(position)"
            throw ImportError(file: file, location: place, field: "", reason: "not JSON: \(reason)")
        }
    }

    /// The first key that appears twice among the top-level members of `bytes`, a well-formed
    /// JSON object (checked by the parser first); keys compared after unescaping (`"\u0069d"` is `id`).
    static func firstRepeatedKey(inObject bytes: [UInt8]) -> String? {
        var depth = 0
        var expectsKey = false
        var seen: Set<String> = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1, expectsKey {
                    expectsKey = false
                    let token = Data(bytes[start...min(index, bytes.count - 1)])
                    if let key = (try? JSONSerialization.jsonObject(with: token, options: [.fragmentsAllowed])) as? String,
                        !seen.insert(key).inserted
                    {
                        return key
                    }
                }
            case UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expectsKey = true }
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","): if depth == 1 { expectsKey = true }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// `an array`, `a string`, ... for messages about a JSON value of the wrong kind.
    static func kindOfJSON(_ value: Any) -> String {
        switch value {
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        case is String: "a string"
        case is NSNull: "null"
        case let number as NSNumber: number.isJSONBoolean ? "a boolean" : "a number"
        default: "another value"
        }
    }
}

extension NSNumber {
    /// Whether JSONSerialization made this number from `true` or `false` (`objCType` "c"), so a
    /// boolean is not taken for 0 or 1. (`number is Bool` is true for any 0 or 1.)
    var isJSONBoolean: Bool {
        String(cString: objCType) == "c"
    }
}
