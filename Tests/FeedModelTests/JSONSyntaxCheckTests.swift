import FeedModel
import Foundation
import Testing

/// Where a JSON document first goes wrong (byte offsets counted by hand), and line/column from offsets.
@Suite struct JSONSyntaxCheckTests {
    @Test(arguments: [
        // (document, offset of the problem, a word of the reason)
        ("[1,2", 4, "end of the file"),
        ("{\"a\":1 \"b\":2}", 7, "expected ','"),
        ("[1,\n {\"a\": x}]", 11, "unexpected character"),
        ("{\"a\" 1}", 5, "expected ':'"),
        ("[1e999]", 1, "out of range"),
        ("[01]", 1, "leading zero"),
        ("[\"a\u{01}\"]", 3, "control character"),
        ("[\"\\x\"]", 2, "bad escape"),
        ("[1] [2]", 4, "after the JSON value"),
        ("5", 0, "an object or an array"),
        ("", 0, "empty"),
        ("[\"abc", 1, "unterminated string"),
        ("[tru]", 1, "unexpected character"),
    ])
    func theFirstProblemIsFoundAtItsByte(document: String, offset: Int, word: String) throws {
        let problem = try #require(JSONSyntaxCheck.firstProblem(in: Array(document.utf8)))
        #expect(problem.byteOffset == offset)
        #expect(problem.reason.contains(word), "\(problem.reason)")
        // Foundation refuses each of these too, so the check is never asked about a good document.
        #expect((try? JSONSerialization.jsonObject(with: Data(document.utf8))) == nil)
    }

    @Test(arguments: ["[]", "{}", "\u{FEFF}[1]", "{\"a\":[1,2,{\"b\":null}],\"c\":\"\\u00e9\\n\"}", "[1,]", "{\"a\":1,}", " [ -0.5e+3 , true , false ] "])
    func aDocumentFoundationAcceptsHasNoProblem(document: String) {
        #expect((try? JSONSerialization.jsonObject(with: Data(document.utf8))) != nil)
        #expect(JSONSyntaxCheck.firstProblem(in: Array(document.utf8)) == nil)
    }

    @Test func nestingPastFoundationsLimitIsAProblemWithoutExhaustingTheStack() throws {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        let problem = try #require(JSONSyntaxCheck.firstProblem(in: deep))
        #expect(problem.byteOffset == JSONSyntaxCheck.maximumDepth)
    }

    @Test func invalidUTF8IsFoundAtItsFirstByte() {
        // 0xC0 0x80 is an overlong NUL; 0xED 0xA0 0x80 a surrogate; 0xF4 0x90 is past U+10FFFF.
        #expect(UTF8Validation.firstInvalidByte(in: [0x61, 0xC0, 0x80]) == 1)
        #expect(UTF8Validation.firstInvalidByte(in: [0x61, 0x62, 0xED, 0xA0, 0x80]) == 2)
        #expect(UTF8Validation.firstInvalidByte(in: [0xF4, 0x90, 0x80, 0x80]) == 0)
        #expect(UTF8Validation.firstInvalidByte(in: [0xE2, 0x82]) == 0)
        #expect(UTF8Validation.firstInvalidByte(in: Array("é€😀".utf8)) == nil)
    }

    @Test func aByteOffsetBecomesLineAndColumn() {
        let text = Array("ab\ncd\r\nef".utf8)
        #expect(TextPosition(byteOffset: 0, in: text) == TextPosition(byteOffset: 0, line: 1, column: 1))
        #expect(TextPosition(byteOffset: 4, in: text) == TextPosition(byteOffset: 4, line: 2, column: 2))
        #expect(TextPosition(byteOffset: 7, in: text) == TextPosition(byteOffset: 7, line: 3, column: 1))
    }
}
