import FeedLayout
import FeedModel
import Foundation
import Testing

@testable import FeedReplay

/// The inputs of issue 11 that trapped, hung or misled the trace readers: each is now accepted
/// or refused with the file, the position and the field.
@Suite struct TraceReaderRobustnessTests {
    static let header =
        #"{"refresh_rate":60,"screen_scale":1,"source":"t","type":"header","version":1,"viewport":{"height":800,"width":400}}"#

    func load(_ format: TraceFormat, _ text: String, file: String = "in") throws(TraceError) -> Trace {
        try format.load(data: Data(text.utf8), file: file)
    }

    @Test func aTouchCSVEndingOnADownIsClosedWithAnUpAtTheSamePoint() throws {
        let trace = try load(.touchCSV, "t_ms,action,x,y\n0,DOWN,10,20\n16,MOVE,10,40\n20,UP,10,60\n100,DOWN,7,8\n")
        #expect(trace.events.suffix(3).map(\.kind) == [.touchDown(Point(x: 7, y: 8)), .touchUp(Point(x: 7, y: 8)), .end])
        #expect(trace.events.suffix(3).map(\.t) == [100, 100, 100])
    }

    @Test func anRRWebNodeIdFarOutsideIntIsRefusedByEventAndField() {
        let text = #"[{"type":4,"timestamp":0,"data":{"width":400,"height":800}},{"type":3,"timestamp":5,"data":{"source":3,"id":1e300,"x":0,"y":10}}]"#
        #expect(throws: TraceError.malformedEvent(file: "in", index: 1, field: "data.id", reason: "missing or not an integer node id")) {
            try load(.rrweb, text)
        }
    }

    @Test(arguments: ["A: 35 0 9223372036854775807 0 0 0", "A: 35 -9223372036854775808 10 0 0 0"])
    func anEvemuAxisRangeBeyond32BitsIsRefusedOnItsLine(line: String) {
        let text = "N: x\nA: 00 0 799 0 0 0\n\(line)\nE: 0.000001 0003 0035 0361\n"
        #expect {
            try load(.evemu, text)
        } throws: { error in
            guard case .malformed("in", 3, let field, _) = error as? TraceError else { return false }
            return field == "max" || field == "min"
        }
    }

    @Test func anEvemuAxisOptionReachingIntMaxIsRefusedNotTrapped() {
        let text = "E: 0.000001 0003 0035 0361\nE: 0.000001 0001 014a 0001\nE: 0.000001 0000 0000 0000\n"
        let importer = EvemuImporter(
            axisX: .init(minimum: 0, maximum: .max), axisY: .init(minimum: 0, maximum: 100))
        #expect(throws: TraceError.self) { try importer.importTrace(from: text, file: "in") }
    }

    @Test func aJSONLinesEventPast24HoursIsRefusedByLineAndField() {
        let text = Self.header + "\n" + #"{"t":0,"type":"down","x":1,"y":2}"# + "\n" + #"{"t":999999999999,"type":"up","x":1,"y":2}"# + "\n"
        #expect {
            try load(.canonical, text)
        } throws: { error in
            guard case .malformed("in", 3, "t", let reason) = error as? TraceError else { return false }
            return reason.contains("24 h")
        }
        // Exactly 24 h is allowed.
        #expect(throws: Never.self) {
            try load(.canonical, Self.header + "\n" + #"{"t":86400000,"type":"end"}"# + "\n")
        }
    }

    @Test func anEvemuAxisDescribedTwiceIsRefusedOnTheSecondLine() {
        let text = "N: x\nA: 35 0 799 0 0 0\nA: 35 0 1599 0 0 0\nE: 0.000001 0003 0035 0361\n"
        #expect {
            try load(.evemu, text)
        } throws: { error in
            guard case .malformed("in", 3, "code", let reason) = error as? TraceError else { return false }
            return reason == "axis 35 is described twice"
        }
    }

    @Test func aTouchCSVGivingBothSpellingsOfAColumnIsRefused() {
        #expect(
            throws: TraceError.malformed(file: "in", line: 1, field: "x_px", reason: "'x' and 'x_px' name one column: give one of them")
        ) { try load(.touchCSV, "t_ms,action,x,y,x_px\n0,DOWN,1,2,3\n5,UP,1,2,3\n") }
    }

    /// A second header was reported as its missing `t` ("field 't': missing"), not as what it is.
    @Test func aSecondHeaderLineIsNamedAsSuch() {
        let text = Self.header + "\n" + #"{"t":0,"type":"down","x":1,"y":2}"# + "\n" + Self.header + "\n"
        #expect(
            throws: TraceError.malformed(
                file: "in", line: 3, field: "type", reason: "a second header (the header is the first line only)")
        ) { try load(.canonical, text) }
    }

    @Test func rrwebTimestampsTenToTheElevenMillisecondsApartAreRefusedAtTheLateEvent() {
        let text = #"[{"type":4,"timestamp":1,"data":{"width":400,"height":800}},{"type":3,"timestamp":100000000001,"data":{"source":3,"id":1,"x":0,"y":10}}]"#
        #expect {
            try load(.rrweb, text)
        } throws: { error in
            guard case .malformedEvent("in", 1, "timestamp", _) = error as? TraceError else { return false }
            return true
        }
    }

    static let lfFiles: [(TraceFormat, String)] = [
        (.canonical, header + "\n" + #"{"t":0,"type":"down","x":1,"y":2}"# + "\n\n" + #"{"t":5,"type":"up","x":1,"y":9}"# + "\n"),
        (.touchCSV, "t_ms,action,x,y\n0,DOWN,1,2\n5,MOVE,1,5\n9,UP,1,9\n"),
        (.evemu, "# EVEMU 1.3\nA: 00 0 99 0 0 0\nA: 01 0 99 0 0 0\nE: 0.000001 0003 0000 10\nE: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0000\nE: 0.010001 0003 0001 30\nE: 0.010001 0000 0000 0000\nE: 0.020001 0001 014a 0\nE: 0.020001 0000 0000 0000\n"),
        (.rrweb, #"[{"type":4,"timestamp":0,"data":{"width":400,"height":800}},"# + "\n" + #"{"type":3,"timestamp":5,"data":{"source":3,"id":1,"x":0,"y":10}}]"#),
        (.chrome, #"[{"name":"InputHandlerProxy::handle_input wheel scroll","ts":10,"args":{"deltaX":0,"deltaY":5}},"# + "\n" + #"{"name":"InputHandlerProxy::handle_input wheel scroll","ts":2010,"args":{"deltaX":0,"deltaY":7}}]"#),
    ]

    @Test(arguments: 0..<lfFiles.count)
    func crlfLineEndsAndAByteOrderMarkReadAsTheLFFile(index: Int) throws {
        let (format, lf) = Self.lfFiles[index]
        let expected = try load(format, lf)
        #expect(expected.events.count >= 2)
        #expect(try load(format, lf.replacingOccurrences(of: "\n", with: "\r\n")) == expected)
        #expect(try load(format, "\u{FEFF}" + lf) == expected)
        #expect(try load(format, "\u{FEFF}" + lf.replacingOccurrences(of: "\n", with: "\r\n")) == expected)
    }

    @Test(arguments: [TraceFormat.chrome, .rrweb])
    func aJSONSyntaxErrorGivesLineAndColumn(format: TraceFormat) {
        // Line 2, column 12: the `"` after `3` where a ',' or '}' belongs.
        let text = "[{\"type\":4,\"timestamp\":0,\"data\":{\"width\":400,\"height\":800}},\n {\"type\":3 \"timestamp\":5}]"
        #expect(throws: TraceError.syntax(file: "in", line: 2, column: 12, reason: "not JSON: expected ',' or '}'")) {
            try load(format, text)
        }
    }

    @Test(arguments: [TraceFormat.canonical, .evemu, .touchCSV])
    func invalidUTF8IsRefusedAtItsLineAndColumn(format: TraceFormat) {
        var bytes = Array("line one\nab".utf8)
        bytes.append(0xFF)
        #expect(throws: TraceError.syntax(file: "in", line: 2, column: 3, reason: "invalid UTF-8 (byte 0xff)")) {
            try format.load(data: Data(bytes), file: "in")
        }
    }

    @Test func aDirectoryOrADeviceIsNamedPlainly() {
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: TraceError.unusable(file: directory, reason: "is a directory, not a file")) {
            try TraceFormat.canonical.load(contentsOf: directory)
        }
        #expect(throws: TraceError.unusable(file: "/dev/zero", reason: "not a regular file (a character device)")) {
            try TraceFormat.rrweb.load(contentsOf: "/dev/zero")
        }
        #expect(throws: TraceError.unusable(file: "/no/such/trace.jsonl", reason: "no such file")) {
            try TraceFormat.canonical.load(contentsOf: "/no/such/trace.jsonl")
        }
    }
}
