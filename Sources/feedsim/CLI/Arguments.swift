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

/// One option a command accepts, with its help line.
struct OptionSpec: Sendable {
    var name: String
    var kind: OptionKind
    var help: String
    var valueName: String

    init(_ name: String, _ kind: OptionKind = .value, _ valueName: String = "VALUE", help: String) {
        self.name = name
        self.kind = kind
        self.help = help
        self.valueName = valueName
    }
}

/// Bad usage: unknown flag, missing value, missing required option. Exit 64 (`EX_USAGE`).
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// A well-formed command that cannot do its job (bad value, missing file, unknown preset). Exit 1.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The parsed options and positional arguments of one command.
///
/// Stage two of the pipeline (tokens → command → bound options → validated values):
/// `parse` only matches tokens to the command's ``OptionSpec``s; typed accessors validate.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// - Throws: ``UsageError`` naming the unknown option or the option missing its value.
    init(_ tokens: [String], specs: [OptionSpec]) throws {
        let byName = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var index = 0
        var onlyPositionals = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if onlyPositionals || !token.hasPrefix("-") || token == "-" {
                positionals.append(token)
                continue
            }
            if token == "--" {
                onlyPositionals = true
                continue
            }
            if token == "--help" || token == "-h" {
                wantsHelp = true
                continue
            }
            var name = token
            var inline: String?
            if let eq = token.firstIndex(of: "=") {
                name = String(token[..<eq])
                inline = String(token[token.index(after: eq)...])
            }
            guard let spec = byName[name] else {
                throw UsageError("unknown option '\(name)'")
            }
            switch spec.kind {
            case .flag:
                if inline != nil { throw UsageError("option '\(name)' takes no value") }
                values[name, default: []].append("true")
            case .value, .repeated:
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < tokens.count else { throw UsageError("option '\(name)' needs a value") }
                    value = tokens[index]
                    index += 1
                }
                if spec.kind == .value {
                    values[name] = [value]
                } else {
                    values[name, default: []].append(value)
                }
            }
        }
    }

    /// Whether the flag was given.
    func flag(_ name: String) -> Bool { values[name] != nil }

    /// The option's value, or `nil` when absent.
    func value(_ name: String) -> String? { values[name]?.last }

    /// All values of a repeated option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The option's value. - Throws: ``UsageError`` when it is absent.
    func required(_ name: String) throws -> String {
        guard let value = value(name) else { throw UsageError("missing required option '\(name)'") }
        return value
    }

    /// An integer option. - Throws: ``CommandFailure`` when it is not an integer in `range`.
    func int(_ name: String, default fallback: Int? = nil, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw CommandFailure("\(name): expected an integer in \(describe(range)), got '\(text)'")
        }
        return number
    }

    /// A floating-point option. - Throws: ``CommandFailure`` when it is not a finite number in `range`.
    func double(_ name: String, default fallback: Double? = nil, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws -> Double? {
        guard let text = value(name) else { return fallback }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw CommandFailure("\(name): expected a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A list of numbers separated by `separator` (e.g. `--viewport 390x844`, `--insets 8,8,8,8`).
    /// - Throws: ``CommandFailure`` naming the option when the count or a number is wrong.
    func numbers(_ name: String, separator: Character, count: ClosedRange<Int>) throws -> [Double]? {
        guard let text = value(name) else { return nil }
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count == parts.count, count.contains(numbers.count) else {
            let shape = count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            throw CommandFailure("\(name): expected \(shape) numbers separated by '\(separator)', got '\(text)'")
        }
        return numbers
    }

    private func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (Int.min, Int.max): return "any"
        case (let low, Int.max): return "\(low)..."
        default: return "\(range.lowerBound)...\(range.upperBound)"
        }
    }
}
