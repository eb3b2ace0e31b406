import Foundation

/// RFC 8288 `Link` header values: `<https://api.example.com/items?page=2>; rel="next", <…>; rel="prev"`.
enum LinkHeader {
    /// The target URI of the first link whose `rel` (a space-separated list, case-insensitive)
    /// holds `relation`, across all `Link` header lines; `nil` when none does.
    static func target(relation: String, in values: [String]) -> String? {
        for value in values {
            var rest = Substring(value)
            while let open = rest.firstIndex(of: "<") {
                guard let close = rest[open...].firstIndex(of: ">") else { return nil }
                let uri = String(rest[rest.index(after: open)..<close])
                // Parameters run to the next link (a comma outside quotes) or the end.
                var parameters = ""
                var index = rest.index(after: close)
                var quoted = false
                while index < rest.endIndex {
                    let character = rest[index]
                    if character == "\"" { quoted.toggle() }
                    if character == "," && !quoted { break }
                    parameters.append(character)
                    index = rest.index(after: index)
                }
                rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
                for parameter in parameters.split(separator: ";") {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                    let relations = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
                        .split(separator: " ")
                    if relations.contains(Substring(relation.lowercased())) { return uri }
                }
            }
        }
        return nil
    }
}
