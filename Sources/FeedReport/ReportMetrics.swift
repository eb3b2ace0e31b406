import FeedLoad
import FeedModel
import FeedReplay
import Foundation

/// A report's figures flattened to dotted key paths (`blank.mean_fraction`, `pages.more`,
/// `latency.after.p99`), as read from its JSON: what the summary tables and `feedsim compare` list.
/// Reading the JSON (not the Swift type) keeps figures other reports add later in the tables.
public struct ReportMetrics: Sendable, Equatable {
    /// What kind of report the JSON holds.
    public enum Kind: String, Sendable {
        case replay, load
    }

    public var kind: Kind
    /// Numbers by key path, sorted by key when listed. Arrays count as `path.count`; booleans as 0 or 1.
    public var numbers: [String: Double]
    /// Texts by key path (options, settings, bands).
    public var texts: [String: String]

    /// - Parameter checked: also refuse a field of the wrong type (against ``ReplayReport`` /
    ///   `LoadReport`) or a negative figure where only a count, a time or a share can stand (what
    ///   `feedsim compare` reads from files a person may have edited).
    /// - Throws: ``ReportInputError`` when `data` is not JSON or not a replay or load report, or
    ///   (`checked`) names the first field that is wrong.
    public init(json data: Data, file: String, checked: Bool = false) throws {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // Where the JSON goes wrong, as the trace readers and `import` say it.
            let bytes = [UInt8](data)
            if let (position, reason) = JSONSyntaxCheck.firstProblemPosition(in: bytes) {
                throw ReportInputError(file: "\(file):\(position.line):\(position.column)", reason: "not JSON: \(reason)")
            }
            throw ReportInputError(file: file, reason: "not JSON")
        }
        guard case .object(let root) = value else {
            throw ReportInputError(file: file, reason: "expected a JSON object")
        }
        if root["blank"] != nil && root["frames"] != nil {
            kind = .replay
        } else if root["settings"] != nil && root["latency"] != nil {
            kind = .load
        } else {
            throw ReportInputError(
                file: file,
                reason: "neither a replay report (feedsim replay --json) nor a load report (feedsim load --json)")
        }
        var numbers: [String: Double] = [:]
        var texts: [String: String] = [:]
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .number(let n): numbers[path] = n
            case .bool(let b): numbers[path] = b ? 1 : 0
            case .string(let s): texts[path] = s
            case .null: texts[path] = "none"
            case .array(let items):
                // A point or a size (`final.content_offset: [x, y]`, `content_size: [width, height]`) is its
                // coordinates, not a count of 2; any other list (transitions, violations) its length.
                let pair = items.compactMap { if case .number(let n) = $0 { n } else { nil } }
                if items.count == 2, pair.count == 2, path.hasSuffix("_offset") || path.hasSuffix("_size") {
                    let names = path.hasSuffix("_size") ? ["width", "height"] : ["x", "y"]
                    for (name, n) in zip(names, pair) { numbers[path + "." + name] = n }
                } else {
                    numbers[path + ".count"] = Double(items.count)
                }
            case .object(let members):
                for (key, member) in members { walk(member, path.isEmpty ? key : path + "." + key) }
            }
        }
        walk(value, "")
        self.numbers = numbers
        self.texts = texts
        if checked { try Self.check(data, kind: kind, numbers: numbers, file: file) }
    }

    /// The report against its Swift type (a field of the wrong type or null where a value must
    /// be), then every figure for a sign: only content offsets (`*_offset.x`, `.y`: a rubber band
    /// pulls past 0) may be negative; and every share (`*fraction*`) for at most 1. A partial report (fields missing) is checked as far as the
    /// decoder gets before the first missing key, then by sign.
    static func check(_ data: Data, kind: Kind, numbers: [String: Double], file: String) throws {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { key in
                if let index = key.intValue { return "[\(index)]" }
                return key.stringValue.reduce(into: "") { text, c in
                    if c.isUppercase { text += "_" + c.lowercased() } else { text.append(c) }
                }
            }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        func expected(_ type: Any.Type) -> String {
            switch type {
            case is Int.Type, is Int64.Type: "an integer"
            case is Double.Type: "a number"
            case is String.Type: "a string"
            case is Bool.Type: "true or false"
            default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
            }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            switch kind {
            case .replay: _ = try decoder.decode(ReplayReport.self, from: data)
            case .load: _ = try decoder.decode(LoadReport.self, from: data)
            }
        } catch DecodingError.keyNotFound {
            // A partial report (an older feedsim's, a hand-cut one): compared on the figures it has.
        } catch DecodingError.typeMismatch(let type, let context) {
            throw ReportInputError(file: file, reason: "field '\(path(context.codingPath))': expected \(expected(type))")
        } catch DecodingError.valueNotFound(let type, let context) {
            throw ReportInputError(file: file, reason: "field '\(path(context.codingPath))': expected \(expected(type)), found null")
        } catch DecodingError.dataCorrupted(let context) {
            throw ReportInputError(file: file, reason: "field '\(path(context.codingPath))': \(context.debugDescription)")
        }
        let signed = numbers.keys.filter { key in
            let parts = key.split(separator: ".")
            return parts.count >= 2 && parts[parts.count - 2].hasSuffix("_offset")
        }
        if let negative = numbers.filter({ $0.value < 0 && !signed.contains($0.key) }).min(by: { $0.key < $1.key }) {
            throw ReportInputError(
                file: file, reason: "field '\(negative.key)': expected a figure ≥ 0 (a count, a time or a share), got \(num(negative.value, 6))")
        }
        // A share of the viewport (`*fraction*`, printed as a percentage) is at most all of it.
        if let over = numbers.filter({ unit(of: $0.key) == "%" && $0.value > 1 }).min(by: { $0.key < $1.key }) {
            throw ReportInputError(
                file: file, reason: "field '\(over.key)': expected a share in 0...1, got \(num(over.value, 6))")
        }
    }

    /// The settings a run was made with: `options.*` of a replay report, `settings.*` of a load report.
    public var settings: [String: String] {
        var out: [String: String] = [:]
        let prefix = kind == .replay ? "options." : "settings."
        for (key, text) in texts where key.hasPrefix(prefix) { out[String(key.dropFirst(prefix.count))] = text }
        for (key, n) in numbers where key.hasPrefix(prefix) { out[String(key.dropFirst(prefix.count))] = num(n, 6) }
        return out
    }

    /// The figures that are not settings, sorted by key. A load report's fields kept only so
    /// `feedsim report merge` can add reports exactly (`histograms.*`: latency buckets in
    /// nanoseconds; `blank_mean_sum`; the per-second `timeline`) are not figures a person compares:
    /// their percentiles and means are (`latency.*`, `replays.*`).
    public var figures: [(key: String, value: Double)] {
        let prefix = kind == .replay ? "options." : "settings."
        return numbers.filter { entry in
            guard !entry.key.hasPrefix(prefix) && entry.key != "version" else { return false }
            if kind == .load {
                if entry.key.hasPrefix("histograms.") || entry.key.hasPrefix("timeline") { return false }
                if entry.key.split(separator: ".").last == "blank_mean_sum" { return false }
            }
            return true
        }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The unit of a figure, from its key's suffix: `ms`, `pt`, `Hz`, `s`, `%` (fractions), `ms/s`, `/s`, or `""`.
    public static func unit(of key: String) -> String {
        let last = key.split(separator: ".").last.map(String.init) ?? key
        if last.hasSuffix("_ms_per_s") { return "ms/s" }
        if last.hasSuffix("_ms")
            || ["p50", "p90", "p99", "p999", "max", "mean"].contains(last) && key.hasPrefix("latency.")
        {
            return "ms"
        }
        if last.hasSuffix("_pt") { return "pt" }
        if last.hasSuffix("_hz") { return "Hz" }
        if last.hasSuffix("_seconds") || last.hasSuffix("_s") { return "s" }
        if last.contains("fraction") { return "%" }
        if last.hasSuffix("_per_second") { return "/s" }
        if last.hasSuffix("_ratio") { return "×" }
        return ""
    }

    /// `value` as the tables print it in `unit` (fractions as percentages).
    public static func format(_ value: Double, unit: String) -> String {
        unit == "%"
            ? num(value * 100, 2) + " %"
            : num(value, 3) + (unit.isEmpty || unit == "×" ? (unit.isEmpty ? "" : " ×") : " " + unit)
    }
}

/// A report file that cannot be read: names the file and what is wrong.
public struct ReportInputError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var reason: String
    public var description: String { "\(file): \(reason)" }
}

/// A JSON value, decoded without bridging (a `true` never reads as 1, nor 1 as `true`).
enum JSONValue: Decodable, Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
            return
        }
        if let b = try? c.decode(Bool.self) {
            self = .bool(b)
            return
        }
        if let n = try? c.decode(Double.self) {
            self = .number(n)
            return
        }
        if let s = try? c.decode(String.self) {
            self = .string(s)
            return
        }
        if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
            return
        }
        self = .object(try c.decode([String: JSONValue].self))
    }
}
