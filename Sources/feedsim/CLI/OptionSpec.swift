import Foundation

/// How an option takes its argument.
enum OptionKind: Sendable {
    /// `--fade`: present or not.
    case flag
    /// `--db PATH` or `--db=PATH`: exactly one value; given twice, the last one wins.
    case value
    /// `--trace A --trace B`: one value per occurrence, kept in order.
    case repeated
}

/// What an option's value must be. The parser checks every value against it as it binds the
/// option (before the command does any work), `--help` prints it, and the typed accessors of
/// ``ParsedArguments`` read values through it: one rule, three readers.
enum OptionValue: Sendable, Equatable {
    /// Any text (a name, a spec the command parses itself).
    case text
    /// A file path: any text but the empty one (`--db ""` would open a throwaway database).
    case path
    /// A file the command writes (a report, a timeline, a trace): a path as ``path``, which must
    /// not name one of the command's input files or another output (``OutputPaths``).
    case output
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// A finite number in the range.
    case number(ClosedRange<Double>)
    /// A finite number in the range, or the word (`--time-scale max`).
    case numberOrWord(ClosedRange<Double>, word: String)
    /// `count` finite numbers separated by `separator` (`390x844`, `8,8,8,8`), each in `each`.
    case numbers(separator: Character, count: ClosedRange<Int>, each: ClosedRange<Double>)
    /// An unsigned 64-bit integer (a random seed).
    case seed

    /// The range as `--help` prints it (`1...1000`, `any finite number`).
    var rangeText: String? {
        func number(_ value: Double) -> String {
            if value == Double.greatestFiniteMagnitude { return "max" }
            if value == -Double.greatestFiniteMagnitude { return "-max" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        }
        func range(_ r: ClosedRange<Double>) -> String {
            r.lowerBound == -Double.greatestFiniteMagnitude && r.upperBound == Double.greatestFiniteMagnitude
                ? "any finite number" : "\(number(r.lowerBound))...\(number(r.upperBound))"
        }
        switch self {
        case .text, .path, .output: return nil
        case .integer(let r): return "\(r.lowerBound)...\(r.upperBound)"
        case .number(let r): return range(r)
        case .numberOrWord(let r, let word): return "\(range(r)) or \(word)"
        case .numbers(let separator, let count, let each):
            let shape = count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            return "\(shape) numbers separated by '\(separator)', each \(range(each))"
        case .seed: return "0...\(UInt64.max)"
        }
    }

    /// Why `text` is not a value of this rule, or `nil` when it is one.
    func problem(with text: String) -> String? {
        let expected: String
        switch self {
        case .text: return nil
        case .path, .output:
            if !text.isEmpty { return nil }
            expected = "a path"
        case .integer(let r):
            if let value = Int(text.trimmingCharacters(in: .whitespaces)), r.contains(value) { return nil }
            expected = "an integer in \(rangeText ?? "")"
        case .number(let r):
            if let value = Double(text), value.isFinite, r.contains(value) { return nil }
            expected = "a number in \(rangeText ?? "")"
        case .numberOrWord(let r, let word):
            if text == word { return nil }
            if let value = Double(text), value.isFinite, r.contains(value) { return nil }
            expected = "a number in \(rangeText ?? "")"
        case .numbers(let separator, let count, let each):
            let parts = text.split(separator: separator, omittingEmptySubsequences: false)
            let values = parts.compactMap { Double($0) }
            if values.count == parts.count, count.contains(values.count), values.allSatisfy({ $0.isFinite && each.contains($0) }) {
                return nil
            }
            expected = rangeText ?? ""
        case .seed:
            if UInt64(text) != nil { return nil }
            expected = "an unsigned 64-bit integer"
        }
        return "expected \(expected), got '\(text)'"
    }
}

/// One option a command accepts: its name, value name, value rule (range), default and help line.
/// A command's list of these is its option table: the parser, `--help` and validation all read it.
struct OptionSpec: Sendable {
    var name: String
    var kind: OptionKind
    var help: String
    var valueName: String
    /// What a value must be (range checked before any work).
    var value: OptionValue
    /// The value used when the option is absent, in the option's own text form (checked against
    /// ``value`` at start); `nil` when there is none or the command computes it (then `help` says so).
    var defaultValue: String?

    /// A text (or flag) option; its help says what a value looks like.
    init(_ name: String, _ kind: OptionKind = .value, _ valueName: String = "VALUE", help: String) {
        self.name = name
        self.kind = kind
        self.help = help
        self.valueName = valueName
        self.value = .text
        self.defaultValue = nil
    }

    /// An option with a checked value (a number, numbers, a seed) and an optional default.
    init(_ name: String, _ valueName: String, accepts value: OptionValue, default defaultValue: String? = nil, help: String) {
        self.name = name
        self.kind = .value
        self.help = help
        self.valueName = valueName
        self.value = value
        self.defaultValue = defaultValue
    }

    /// The help line: the text, then the range and the default from the table.
    var helpLine: String {
        var parts: [String] = []
        if let range = value.rangeText { parts.append("Range: \(range)") }
        if let defaultValue { parts.append("default \(defaultValue)") }
        return parts.isEmpty ? help : help + " [" + parts.joined(separator: "; ") + "]"
    }
}

/// A mistake in a command's option table (a name listed twice, a default outside its own range):
/// a bug of this binary, reported at start before any command runs.
struct OptionTableError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }

    /// Checks one command's table. - Throws: ``OptionTableError`` naming the command and option.
    static func check(_ specs: [OptionSpec], command: String) throws {
        var seen: Set<String> = ["--help", "-h"]
        for spec in specs {
            guard seen.insert(spec.name).inserted else {
                throw OptionTableError(message: "command '\(command)' lists option '\(spec.name)' twice")
            }
            if let value = spec.defaultValue, let problem = spec.value.problem(with: value) {
                throw OptionTableError(message: "command '\(command)': default of '\(spec.name)': \(problem)")
            }
        }
    }
}
