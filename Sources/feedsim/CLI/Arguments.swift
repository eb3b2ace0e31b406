import Foundation

/// Bad usage: unknown flag, missing value, missing required option, a value outside its option's
/// range, an unexpected argument. Exit 64 (`EX_USAGE`).
struct UsageError: Error, CustomStringConvertible {
    var message: String
    /// Whether the command's usage line follows the message (not for a bad value: the message
    /// names the option and its range, one line is enough).
    var showsUsage: Bool
    init(_ message: String, showsUsage: Bool = true) {
        self.message = message
        self.showsUsage = showsUsage
    }
    var description: String { message }

    /// `--name: expected …, got '…'`.
    static func badValue(_ name: String, _ problem: String) -> UsageError {
        UsageError("\(name): \(problem)", showsUsage: false)
    }
}

/// A well-formed command that cannot do its job (bad value, missing file, unknown preset). Exit 1.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The parsed options and positional arguments of one command.
///
/// Stage two of the pipeline (tokens → command → bound options → validated values): `init`
/// matches tokens to the command's ``OptionSpec``s and checks every value against its option's
/// ``OptionValue`` as it binds it, so a value out of range stops the command before any work;
/// the typed accessors return the given value or the table's default.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false
    private let specs: [String: OptionSpec]

    /// - Throws: ``UsageError`` naming the unknown option, the option missing its value, or the
    ///   option whose value is outside its range.
    init(_ tokens: [String], specs: [OptionSpec]) throws {
        let byName = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.specs = byName
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
                let suggestion = nearestName(to: name, among: Array(byName.keys)).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError("unknown option '\(name)'" + suggestion)
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
                if let problem = spec.value.problem(with: value) { throw UsageError.badValue(name, problem) }
                if spec.kind == .value {
                    // A second value silently replaced the first (`--trace a --trace b` replayed b).
                    if let first = values[name]?.first {
                        throw UsageError(
                            "option '\(name)' given twice ('\(first)' and '\(value)'); it takes one value", showsUsage: false)
                    }
                    values[name] = [value]
                } else {
                    values[name, default: []].append(value)
                }
            }
        }
        if !wantsHelp { try checkOutputs() }
    }

    /// Value names of text options that name files the command reads (`--trace FILE`, `--db PATH|URI`).
    private static let inputValueNames: Set<String> = ["FILE", "PATH", "PATH|URI"]

    /// No output option may name an input file (an option's or an argument's) or another output
    /// (``OutputPaths``).
    private func checkOutputs() throws {
        var outputs: [OutputPaths.Named] = []
        var inputs: [OutputPaths.Named] = []
        for (name, given) in values.sorted(by: { $0.key < $1.key }) {
            guard let spec = specs[name] else { continue }
            let isInput = spec.value == .path || (spec.value == .text && Self.inputValueNames.contains(spec.valueName))
            for path in given {
                if spec.value == .output {
                    outputs.append(.init(label: "option '\(name)'", path: path))
                } else if isInput {
                    inputs.append(.init(label: "option '\(name)'", path: path, isDatabase: name.hasSuffix("db")))
                }
            }
        }
        for (position, path) in positionals.enumerated() {
            inputs.append(.init(label: "argument \(position + 1)", path: path))
        }
        try OutputPaths.check(outputs: outputs, inputs: inputs)
    }

    /// Whether the flag was given.
    func flag(_ name: String) -> Bool { values[name] != nil }

    /// The option's value, or `nil` when absent (the table's default is not applied: text options
    /// have their defaults in the command).
    func value(_ name: String) -> String? { values[name]?.last }

    /// All values of a repeated option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The option's value. - Throws: ``UsageError`` when it is absent.
    func required(_ name: String) throws -> String {
        guard let value = value(name) else { throw UsageError("missing required option '\(name)'") }
        return value
    }

    /// Fails when the command was given positional arguments (every command that takes none).
    /// - Throws: ``UsageError`` naming the first one.
    func expectNoPositionals() throws {
        if let first = positionals.first { throw UsageError("unexpected argument '\(first)'") }
    }

    /// The given value, else the table's default, else `fallback`; checked against the rule.
    private func checked(_ name: String, fallback: String?) throws -> (text: String, rule: OptionValue)? {
        guard let spec = specs[name] else { preconditionFailure("option \(name) is not in the command's table") }
        guard let text = value(name) ?? spec.defaultValue ?? fallback else { return nil }
        if let problem = spec.value.problem(with: text) { throw UsageError.badValue(name, problem) }
        return (text, spec.value)
    }

    /// An integer option (``OptionValue/integer(_:)``): the value, the table's default, or `fallback`.
    /// - Throws: ``UsageError`` when it is not an integer in the option's range.
    func int(_ name: String, default fallback: Int? = nil) throws -> Int? {
        guard let (text, _) = try checked(name, fallback: fallback.map(String.init)) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespaces))
    }

    /// A number option (``OptionValue/number(_:)``): the value, the table's default, or `fallback`.
    /// - Throws: ``UsageError`` when it is not a finite number in the option's range.
    func double(_ name: String, default fallback: Double? = nil) throws -> Double? {
        guard let (text, _) = try checked(name, fallback: fallback.map { "\($0)" }) else { return nil }
        return Double(text)
    }

    /// A seed option (``OptionValue/seed``). - Throws: ``UsageError`` when it is not a `UInt64`.
    func seed(_ name: String) throws -> UInt64? {
        guard let (text, _) = try checked(name, fallback: nil) else { return nil }
        return UInt64(text)
    }

    /// A list of numbers (``OptionValue/numbers(separator:count:each:)``: `--viewport 390x844`,
    /// `--insets 8,8,8,8`). - Throws: ``UsageError`` naming the option when the count or a number is wrong.
    func numbers(_ name: String) throws -> [Double]? {
        guard let (text, rule) = try checked(name, fallback: nil), case .numbers(let separator, _, _) = rule else {
            return nil
        }
        return text.split(separator: separator, omittingEmptySubsequences: false).compactMap { Double($0) }
    }
}
