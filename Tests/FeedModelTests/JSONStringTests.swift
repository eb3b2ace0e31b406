import FeedModel
import Foundation
import Testing

/// The one JSON string escaper (trace lines, the HTTP API, Perfetto traces).
@Suite struct JSONStringTests {
    @Test func escapesWhatRFC8259RequiresAndNothingElse() {
        // RFC 8259 §7: quotation mark, reverse solidus and U+0000–U+001F must be escaped.
        #expect(JSONString.literal("") == #""""#)
        #expect(JSONString.literal(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(JSONString.literal("1\n2\r3\t4") == #""1\n2\r3\t4""#)
        #expect(JSONString.literal("\u{0}\u{1f}\u{b}") == #""\u0000\u001f\u000b""#)
        #expect(JSONString.literal("é/😀\u{7f}") == "\"é/😀\u{7f}\"")
    }

    /// Random strings (seeded) read back by Foundation's JSON parser, an independent decoder.
    @Test func randomStringsRoundTripThroughFoundationsParser() throws {
        var random = SplitMix64(seed: 0x150_0001)
        let alphabet: [Unicode.Scalar] = (0..<0x30).compactMap(Unicode.Scalar.init) + ["\\", "\"", "é", "😀", "\u{2028}"]
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int(random.next() % 20) {
                text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            let data = Data(("[" + JSONString.literal(text) + "]").utf8)
            let parsed = try JSONSerialization.jsonObject(with: data) as? [String]
            #expect(parsed == [text], "\(text.debugDescription)")
        }
    }
}
