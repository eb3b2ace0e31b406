import FeedHTTP
import Foundation
import Testing

@testable import FeedHTTP

@Suite struct JSONPointerTests {
    /// RFC 6901 §5's example document and every pointer listed there with its value.
    @Test func resolvesTheRFC6901Examples() throws {
        let document = try JSONSerialization.jsonObject(
            with: Data(
                #"{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}"#
                    .utf8))
        #expect((try JSONPointer("").resolve(document) as? [String: Any])?.count == 10)
        #expect(try JSONPointer("/foo").resolve(document) as? [String] == ["bar", "baz"])
        #expect(try JSONPointer("/foo/0").resolve(document) as? String == "bar")
        let expected: [(String, Int)] = [
            ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
        ]
        for (pointer, value) in expected {
            #expect(try JSONPointer(pointer).resolve(document) as? Int == value, "\(pointer)")
        }
        #expect(try JSONPointer("/foo/01").resolve(document) == nil)  // no leading zeros
        #expect(try JSONPointer("/foo/2").resolve(document) == nil)
        #expect(throws: ConventionError.self) { try JSONPointer("foo") }
    }

    /// RFC 6901 §3: `escaped = "~" ( "0" / "1" )`; any other `~` is no pointer.
    @Test func aTildeNotFollowedByZeroOrOneIsRefused() throws {
        for (text, message) in [
            ("/height~2", "JSON Pointer '/height~2' has '~2' at character 8: after '~' only '0' (for '~') or '1' (for '/') may follow (RFC 6901)"),
            ("/a~", "JSON Pointer '/a~' has '~' at its end at character 3: after '~' only '0' (for '~') or '1' (for '/') may follow (RFC 6901)"),
            ("/~01/~x", "JSON Pointer '/~01/~x' has '~x' at character 6: after '~' only '0' (for '~') or '1' (for '/') may follow (RFC 6901)"),
        ] {
            let error = #expect(throws: ConventionError.self) { try JSONPointer(text) }
            #expect(error?.message == message)
        }
        #expect(try JSONPointer("/~01").resolve(["~1": 5]) as? Int == 5)  // ~0 then 1: the key "~1"
    }
}

@Suite struct LinkHeaderTests {
    /// RFC 8288 §3.5's examples: a title parameter, and a relation list with an extension type.
    @Test func findsRelationsInTheRFC8288Examples() {
        let single = [#"<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter""#]
        #expect(LinkHeader.target(relation: "previous", in: single) == "http://example.com/TheBook/chapter2")
        #expect(LinkHeader.target(relation: "next", in: single) == nil)
        let list = [##"</>; rel="http://example.net/foo", </terms>; rel="copyright"; anchor="#foo""##]
        #expect(LinkHeader.target(relation: "copyright", in: list) == "/terms")
        let multiple = [#"<http://example.org/>; rel="start http://example.net/relation/other""#]
        #expect(LinkHeader.target(relation: "start", in: multiple) == "http://example.org/")
        // GitHub's form, unquoted-comma-safe: a title holding a comma.
        let github = [#"<https://api.github.com/x?page=2>; rel="next"; title="a, b", <https://api.github.com/x?page=9>; rel="last""#]
        #expect(LinkHeader.target(relation: "next", in: github) == "https://api.github.com/x?page=2")
        #expect(LinkHeader.target(relation: "LAST", in: github) == "https://api.github.com/x?page=9")
    }
}

@Suite struct ConventionTests {
    @Test func everyPresetValidates() throws {
        for name in Convention.presetNames {
            let convention = try #require(Convention.preset(named: name))
            try convention.validate()
            #expect(convention.name == name)
        }
    }

    @Test(arguments: [
        (#"{"name": "x", "first": "{url}", "items": "/data", "fields": {}}"#, "field 'fields.id' is required"),
        (#"{"name": "x", "first": "{url}", "items": "/data", "fields": {"id": "/id", "height": "/height~2"}}"#,
         "field 'fields.height': JSON Pointer '/height~2' has '~2' at character 8"),
        (#"{"name": "x", "first": "{url}", "items": "data", "fields": {"id": "/id"}}"#, "field 'items'"),
        (#"{"name": "x", "first": "{url}", "fields": {"id": "/id"}}"#, "missing field 'items'"),
        (#"{"name": "x", "first": "{url}", "items": "", "fields": {"id": "/id"}, "next": "/n"}"#, "field 'after' is required"),
        (#"{"name": "x", "first": "{url}", "items": "", "fields": {"id": "/id"}, "published_at_unit": "h"}"#, "published_at_unit"),
        // Every item would lack these, and be dropped at run time: refused when the file is read.
        (#"{"name": "x", "first": "{url}", "items": "", "fields": {"id": "/id"}}"#, "field 'fields.published_at' is required"),
        (#"{"name": "x", "first": "{url}", "items": "", "fields": {"id": "/id", "published_at": "/t", "kind": "/k", "height": "/h"}}"#,
         "field 'fields.width' is required unless 'defaults.width' gives it"),
        (#"{"name": "x", "first": "{url}", "items": "", "fields": {"id": "/id", "published_at": "/t"}, "defaults": {"width": 1, "height": 1}}"#,
         "field 'fields.kind' is required unless 'defaults.kind' gives it"),
    ])
    func aBrokenConventionFileIsAnErrorNamingTheFileAndField(text: String, expected: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("convention-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        let error = #expect(throws: ConventionError.self) { try Convention.load(file.path) }
        #expect(error?.message.hasPrefix(file.path) == true)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    /// A truncated file: where and what (the string opened at line 2, column 11 never ends); a
    /// well-formed file with a field of the wrong type: its path and what it should hold.
    @Test(arguments: [
        ("{\"name\": \"x\",\n \"items\": \"/da", ":2:11: not JSON: unterminated string"),
        ("{\"name\": \"x\",\n \"items\": ", ":2:11: not JSON: unexpected end of the file inside an object"),
        (#"{"name": "x", "first": "{url}", "items": 5, "fields": {"id": "/id"}}"#, ": field 'items' has the wrong type (expected a string)"),
        (#"[1]"#, ": not a convention file (expected a JSON object)"),
    ])
    func aMalformedConventionFileNamesThePlace(text: String, expected: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("convention-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        let error = #expect(throws: ConventionError.self) { try Convention.load(file.path) }
        #expect(error?.message == file.path + expected)
    }

    @Test func anUnknownNameThatIsNoFileIsAnError() {
        let error = #expect(throws: ConventionError.self) { try Convention.load("graphql") }
        #expect(error?.message.contains("neither a preset") == true)
    }
}
