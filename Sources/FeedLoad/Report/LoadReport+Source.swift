extension LoadReport {
    /// The problems the sessions found in an HTTP feed API's answers (`feedsim load --source`):
    /// counted by kind (`http_status`, `timeout`, `malformed_json`, `missing_field`, `out_of_order`,
    /// `duplicate_item`, `cursor_unchanged`, `no_cursor`), the first examples with their URLs, the
    /// requests by HTTP version.
    public struct SourceProblems: Codable, Hashable, Sendable {
        /// The page URL the sessions walked.
        public var url: String
        public var convention: String
        public var requests: Int
        /// Requests by HTTP version (`"1.1"`, `"2"`).
        public var httpVersions: [String: Int]
        public var problems: [String: Int]
        /// `problem url: detail`, the first few.
        public var examples: [String]
        /// Whether skipped items were looked for (`--truth-db`, the database behind the API);
        /// without it the consistency check counts duplicates only.
        public var skipsChecked: Bool

        public init(
            url: String, convention: String, requests: Int, httpVersions: [String: Int], problems: [String: Int],
            examples: [String], skipsChecked: Bool
        ) {
            self.url = url
            self.convention = convention
            self.requests = requests
            self.httpVersions = httpVersions
            self.problems = problems
            self.examples = examples
            self.skipsChecked = skipsChecked
        }

        /// The segments' sections as one (`feedsim report merge`): requests, versions and problems
        /// summed, the first ``mergedExamples`` examples in segment order, skips checked only if
        /// every segment checked them; `nil` for none.
        static func merge(_ sections: [SourceProblems]) -> SourceProblems? {
            guard var merged = sections.first else { return nil }
            for other in sections.dropFirst() {
                merged.requests += other.requests
                merged.httpVersions.merge(other.httpVersions, uniquingKeysWith: +)
                merged.problems.merge(other.problems, uniquingKeysWith: +)
                merged.skipsChecked = merged.skipsChecked && other.skipsChecked
            }
            merged.examples = Array(sections.flatMap(\.examples).prefix(mergedExamples))
            return merged
        }

        /// Examples a merged section keeps: as many as one run's audit keeps.
        static let mergedExamples = 20

        /// Examples the text report shows (the JSON report has them all).
        static let textExamples = 3

        /// Lines for the text report.
        public var textLines: [String] {
            let versions = httpVersions.keys.sorted().map { "HTTP/\($0) \(httpVersions[$0]!)" }.joined(separator: ", ")
            var lines = ["http source \(url) (convention \(convention)): \(requests) \(requests == 1 ? "request" : "requests")" + (versions.isEmpty ? "" : " (\(versions))")]
            if !skipsChecked { lines.append("  skips not checked: give --truth-db (the database behind the API) to find skipped items") }
            let total = problems.values.reduce(0, +)
            lines.append("  API problems: " + (total == 0 ? "none" : "\(total)"))
            for name in problems.keys.sorted() { lines.append("    \(name): \(problems[name]!)") }
            for example in examples.prefix(Self.textExamples) { lines.append("    - \(example)") }
            if examples.count > Self.textExamples {
                lines.append("    … \(examples.count - Self.textExamples) more examples in the JSON report")
            }
            return lines
        }
    }
}
