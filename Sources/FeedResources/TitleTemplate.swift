/// A parsed title template of a ``Preset/TitleGrammar``: literal text and `{slot}` references.
///
/// `"{Adjective} {noun} in {place}"` parses to slot `adjective` (capitalized), literal `" "`,
/// slot `noun`, literal `" in "`, slot `place`.
struct TitleTemplate: Hashable, Sendable {
    enum Part: Hashable, Sendable {
        case literal(String)
        /// A slot by its lower-case name; `capitalized` when written with an upper-case first letter.
        case slot(String, capitalized: Bool)
    }

    let parts: [Part]

    /// The slot names the template uses (lower case), in order of use.
    var slots: [String] {
        parts.compactMap { if case .slot(let name, _) = $0 { name } else { nil } }
    }

    /// Parses `text`; `nil` for a `{` with no `}` after it or an empty slot name `{}`.
    /// - Complexity: O(text.count).
    init?(_ text: String) {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let name = rest[rest.index(after: open)..<close]
            guard let first = name.first else { return nil }
            parts.append(.slot(name.lowercased(), capitalized: first.isUppercase))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
    }
}
