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

    /// - Throws: ``ReportInputError`` when `data` is not JSON or not a replay or load report.
    public init(json data: Data, file: String) throws {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ReportInputError(file: file, reason: "not JSON (\(error.localizedDescription))")
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
