import Foundation
import Testing

@testable import FeedModel
@testable import FeedReplay

/// The trace readers' byte-level fast paths against independent oracles on seeded random input:
/// line splitting against a split over Unicode scalars (the reader's former way), the line
/// parser's strings against `JSONSerialization`, and UTF-8 validation against `String(validating:)`.
@Suite struct TraceInputTests {
    /// Splits as the reader did before its UTF-8 scan: at LF on Unicode scalars, a CR before the LF
    /// dropped, a byte-order mark at the very start dropped.
    private static func oracleLines(_ text: String) -> [String] {
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        return scalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(Substring(line.last == "\r" ? line.dropLast() : line))
        }
    }

    private static let pieces = ["a", "b", " ", "é", "\u{301}", "\r", "\n", "\r\n", "\u{FEFF}", "🙂", "\r\r", "{}"]

    @Test func linesEqualASplitOnUnicodeScalarsForRandomTexts() {
        var rng = SplitMix64(seed: 13)
        var multiLine = 0
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 12) { text += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
            let lines = TraceInput.lines(text).map(String.init)
            #expect(lines == Self.oracleLines(text), "text \(Array(text.unicodeScalars))")
            if lines.count > 2 { multiLine += 1 }
        }
        #expect(multiLine > 200)
    }

    @Test func crlfLinesLoseTheirCRAndALeadingByteOrderMarkIsDropped() {
        #expect(TraceInput.lines("\u{FEFF}a\r\nb\n\r\n") == ["a", "b", "", ""])
        #expect(TraceInput.lines("") == [""])
        #expect(TraceInput.lines("x\r\r\n") == ["x\r", ""])
    }

    @Test func parsedStringsEqualJSONSerializationsForRandomEscapes() throws {
        let alphabet = ["a", "Z", " ", "é", "🙂", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u00e9", "\\u0041", "\\b", "\\f", "\\r"]
        var rng = SplitMix64(seed: 15)
        var escaped = 0
        for _ in 0..<1_000 {
            var literal = ""
            for _ in 0..<Int(rng.next() % 8) { literal += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            if literal.contains("\\") { escaped += 1 }
            let line = "{\"k\":\"\(literal)\",\"t\":1}"
            let oracle = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let parsed = try TraceJSONParser.parse(Substring(line))
            guard case .object(let members) = parsed, case .string(let value)? = members["k"] else {
                Issue.record("not an object with a string: \(line)")
                continue
            }
            #expect(value == oracle?["k"] as? String, "line \(line)")
        }
        #expect(escaped > 500)
    }

    @Test func aControlCharacterInAStringIsStillRefusedAtItsColumn() {
        #expect(throws: TraceJSONSyntaxError(column: 9, reason: "control character in a string")) {
            try TraceJSONParser.parse("{\"k\":\"ab\u{01}\"}")
        }
    }

    @Test func firstInvalidByteAgreesWithTheStandardLibrarysValidation() {
        var rng = SplitMix64(seed: 17)
        var invalid = 0
        for _ in 0..<5_000 {
            let bytes = (0..<Int(rng.next() % 10)).map { _ -> UInt8 in
                // Mostly ASCII and the lead and continuation bytes of real sequences, some of every byte.
                let r = rng.next()
                switch r % 4 {
                case 0: return UInt8(truncatingIfNeeded: r >> 8)
                case 1: return 0x80 | UInt8(truncatingIfNeeded: (r >> 8) & 0x3F)
                case 2: return [0xC3, 0xE2, 0xF0, 0xED, 0xE0, 0xF4][Int((r >> 8) % 6)]
                default: return UInt8(ascii: "a")
                }
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let bad = UTF8Validation.firstInvalidByte(in: bytes)
            #expect((bad == nil) == valid, "bytes \(bytes)")
            if let bad {
                invalid += 1
                // Everything before the reported byte is valid UTF-8.
                #expect(String(validating: bytes[..<bad], as: UTF8.self) != nil, "bytes \(bytes)")
            }
        }
        #expect(invalid > 1_000)
    }
}
