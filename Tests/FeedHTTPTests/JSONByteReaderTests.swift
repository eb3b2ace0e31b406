import FeedModel
import Foundation
import Testing

@testable import FeedHTTP

/// ``JSONByteReader`` against `JSONSerialization` as the oracle: random documents (nesting,
/// escapes, UTF-8 past ASCII, numbers of every form) and the same documents broken at random are
/// accepted exactly when `JSONSerialization` accepts them; strings and numbers read as it reads
/// them; malformed input throws with the byte offset of the fault.
@Suite struct JSONByteReaderTests {
    /// Reads `text` whole: one value, then nothing but whitespace.
    static func accepts(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            do {
                try reader.skipValue()
                try reader.end()
                return true
            } catch {
                return false
            }
        }
    }

    static func oracleAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    static let alphabet: [String] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1f}", "é", "中", "😀", "\u{7f}"]

    /// A JSON string literal of `text`, each character written one of the ways RFC 8259 allows.
    static func literal(_ text: String, _ random: inout SplitMix64) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let escapeAnyway = random.next() % 4 == 0
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += escapeAnyway ? "\\u000A" : "\\n"
            case "\t": out += "\\t"
            case "/": out += escapeAnyway ? "\\/" : "/"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            case _ where escapeAnyway:
                // UTF-16 code units, a surrogate pair past the BMP, upper or lower case hex.
                for unit in String(scalar).utf16 { out += String(format: random.next() % 2 == 0 ? "\\u%04X" : "\\u%04x", unit) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func randomText(_ random: inout SplitMix64) -> String {
        (0..<Int(random.next() % 8)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
    }

    static func randomNumber(_ random: inout SplitMix64) -> String {
        var text = random.next() % 3 == 0 ? "-" : ""
        text += random.next() % 5 == 0 ? "0" : String(1 + random.next() % 9) + String(random.next() % 100_000_000_000)
        if random.next() % 3 == 0 { text += "." + String(random.next() % 1000) }
        if random.next() % 4 == 0 {
            text += (random.next() % 2 == 0 ? "e" : "E") + ["", "+", "-"][Int(random.next() % 3)] + String(random.next() % 30)
        }
        return text
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> String {
        let space = [" ", "", "\n", "\t", "\r\n "][Int(random.next() % 5)]
        switch random.next() % (depth > 3 ? 4 : 6) {
        case 0: return literal(randomText(&random), &random)
        case 1: return randomNumber(&random)
        case 2: return ["true", "false", "null"][Int(random.next() % 3)]
        case 3: return space + literal(randomText(&random), &random) + space
        case 4:
            let elements = (0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) }
            return "[" + space + elements.joined(separator: "," + space) + "]"
        default:
            let members = (0..<Int(random.next() % 4)).map { _ in
                literal(randomText(&random), &random) + space + ":" + randomValue(&random, depth: depth + 1)
            }
            return "{" + members.joined(separator: space + ",") + space + "}"
        }
    }

    @Test func randomDocumentsAndTheirBrokenCopiesAreAcceptedExactlyWhenJSONSerializationAcceptsThem() {
        var random = SplitMix64(seed: 8259)
        var accepted = 0
        var rejected = 0
        let breakers: [[UInt8]] = [
            Array(",".utf8), Array("]".utf8), Array("}".utf8), Array("\"".utf8), Array("\\".utf8), Array("x".utf8),
            [0x01], [0xFF], [0xC3], Array("0".utf8), Array("-".utf8), Array(".".utf8), Array(":".utf8), Array("e".utf8),
        ]
        for round in 0..<3000 {
            var bytes = Array(Self.randomValue(&random, depth: 0).utf8)
            if round % 2 == 1, !bytes.isEmpty {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes.removeSubrange(at...)  // truncated
                case 1: bytes.remove(at: at)
                default: bytes.insert(contentsOf: breakers[Int(random.next() % UInt64(breakers.count))], at: at)
                }
            }
            let expected = Self.oracleAccepts(bytes)
            #expect(Self.accepts(bytes) == expected, "\(String(decoding: bytes, as: UTF8.self)) (\(bytes))")
            if expected { accepted += 1 } else { rejected += 1 }
        }
        // Both outcomes were exercised many times.
        #expect(accepted > 1000 && rejected > 500, "\(accepted) accepted, \(rejected) rejected")
    }

    @Test func stringsReadAsJSONSerializationReadsThem() throws {
        var random = SplitMix64(seed: 6901)
        for _ in 0..<2000 {
            let text = Self.randomText(&random) + Self.randomText(&random)
            let bytes = Array(Self.literal(text, &random).utf8)
            let oracle = try #require(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? String)
            #expect(oracle == text)
            let read = try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONByteReader(buffer)
                return try reader.readString()
            }
            #expect(read == oracle, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(Array(read.utf8) == Array(oracle.utf8))
        }
    }

    /// Strings long enough to be scanned eight bytes at a time, with one special piece (an escape,
    /// a byte past ASCII, a raw control character, a raw quote or backslash) at every offset of
    /// every length up to 40 bytes, inside a document (so bytes follow the string) and at its end:
    /// accepted exactly when `JSONSerialization` accepts them, read as it reads them.
    @Test func longStringsWithASpecialByteAtEveryOffsetReadAsJSONSerializationReadsThem() throws {
        let pieces: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array("é".utf8), Array("中".utf8), [0x01], [0x1F], [0x7F], Array("\"".utf8), Array("\\".utf8), [0xC3], [0xFF],
        ]
        var checked = 0
        for length in 0...40 {
            for offset in 0...length {
                for piece in pieces {
                    var content = Array(repeating: UInt8(ascii: "a"), count: length)
                    content.insert(contentsOf: piece, at: offset)
                    for document in [[UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")], Array("[\"".utf8) + content + Array("\",1]".utf8)] {
                        let oracle = try? JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])
                        #expect(Self.accepts(document) == (oracle != nil), "\(document)")
                        guard let oracle else { continue }
                        let expected = try #require((oracle as? String) ?? (oracle as? [Any])?.first as? String)
                        let read = try document.withUnsafeBufferPointer { buffer in
                            var reader = JSONByteReader(buffer)
                            if document.first == UInt8(ascii: "[") { try reader.expect(UInt8(ascii: "[")) }
                            return try reader.readString()
                        }
                        #expect(Array(read.utf8) == Array(expected.utf8), "\(document)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 10_000)
    }

    /// Numbers as C's `strtod` rounds them (correctly, to the nearest Double). `JSONSerialization`
    /// on Linux accepts the same texts but is a few ulps off on long decimals
    /// (`1.44980415471773` → `1.4498041547177298`), so it is the oracle for which texts are
    /// numbers and, within 8 ulps, for their values.
    @Test func numbersReadAsStrtodReadsThem() throws {
        var random = SplitMix64(seed: 754)
        var offByAnUlp = 0
        for _ in 0..<3000 {
            let text = Self.randomNumber(&random)
            let bytes = Array(text.utf8)
            let oracle = try #require(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? NSNumber)
            let exact = strtod(text, nil)
            let read = try? bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONByteReader(buffer)
                return try reader.readNumber()
            }
            guard exact.isFinite else {
                #expect(read == nil, "\(text): beyond a Double's range")
                continue
            }
            #expect(read == exact, "\(text)")
            #expect(abs(oracle.doubleValue - exact) <= 8 * exact.ulp, "\(text): JSONSerialization \(oracle.doubleValue)")
            if oracle.doubleValue != exact { offByAnUlp += 1 }
        }
        #expect(offByAnUlp < 3000)
    }

    /// Each malformed document with the offset of its fault, counted by hand.
    @Test(arguments: [
        (#"{"a":}"#, 5, "expected a number") as (String, Int, String),
        ("[1,]", 3, "expected a number"),
        (#""abc"#, 0, "the string is not closed"),
        ("01", 1, "text after the document"),
        (#""\x""#, 1, "an unknown escape in a string"),
        (#""\u12""#, 1, #"expected four hex digits after \u"#),
        (#""\uD800""#, 7, "a lone UTF-16 surrogate"),
        (#""\uDC00x""#, 7, "a lone UTF-16 surrogate"),
        ("\"a\u{1}\"", 2, "a control character in a string"),
        ("{} x", 3, "text after the document"),
        ("[1 2]", 3, "expected ',' or ']'"),
        (#"{"a" 1}"#, 5, "expected ':'"),
        ("-", 1, "expected a number"),
        ("1.", 2, "expected a digit after '.'"),
        ("1e+", 3, "expected a digit in the exponent"),
        ("tru", 0, "expected a boolean"),
        ("1e400", 0, "the number is beyond a Double's range"),
    ])
    func malformedInputThrowsWithTheOffsetOfTheFault(text: String, offset: Int, reason: String) {
        let bytes = Array(text.utf8)
        // JSONSerialization rejects them too, but for a trailing comma (it accepts `[1,]`, which
        // RFC 8259 §5 does not) and a number past Double's range.
        #expect(!Self.oracleAccepts(bytes) || ["[1,]", "1e400"].contains(text), "the oracle rejects \(text) too")
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            #expect(throws: JSONScanError(offset: offset, reason: reason)) {
                try reader.skipValue()
                try reader.end()
            }
        }
    }

    @Test func invalidUTF8AndNestingPastTheLimitAreErrors() {
        for bytes in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] as [[UInt8]] {
            #expect(!Self.accepts(bytes) && !Self.oracleAccepts(bytes), "\(bytes)")
        }
        let deep = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        deep.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            #expect(throws: JSONScanError(offset: 512, reason: "nested more than 512 deep")) { try reader.skipValue() }
        }
        let fine = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        #expect(Self.accepts(fine))
    }
}
