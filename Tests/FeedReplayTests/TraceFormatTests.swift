import FeedLayout
import Testing

@testable import FeedReplay

@Suite struct TraceFormatTests {
    static let header = #"{"refresh_rate":120,"screen_scale":3,"source":"hand \"made\"","type":"header","version":1,"viewport":{"height":844,"width":390}}"#

    @Test func everyEventKindWritesTheDocumentedLineAndReadsBack() throws {
        let trace = Trace(
            header: TraceHeader(viewport: Size(width: 390, height: 844), screenScale: 3, refreshRate: 120, source: "hand \"made\""),
            events: [
                TraceEvent(t: 0, .touchDown(Point(x: 100, y: 700))),
                TraceEvent(t: 8.333, .touchMove(Point(x: 100.25, y: 650.5))),
                TraceEvent(t: 8.333, .touchUp(Point(x: 100.25, y: 650.5))),
                TraceEvent(t: 20, .offset(Point(x: 0, y: -12.5))),
                TraceEvent(t: 21, .wheel(dx: -0.0, dy: 53.333)),
                TraceEvent(t: 22, .resize(Size(width: 844, height: 390))),
                TraceEvent(t: 23, .tap(Point(x: 1, y: 2))),
                TraceEvent(t: 24, .insert(count: 3)),
                TraceEvent(t: 30, .end),
            ])
        let expected = [
            Self.header,
            #"{"t":0,"type":"down","x":100,"y":700}"#,
            #"{"t":8.333,"type":"move","x":100.25,"y":650.5}"#,
            #"{"t":8.333,"type":"up","x":100.25,"y":650.5}"#,
            #"{"t":20,"type":"offset","x":0,"y":-12.5}"#,
            #"{"dx":0,"dy":53.333,"t":21,"type":"wheel"}"#,
            #"{"height":390,"t":22,"type":"resize","width":844}"#,
            #"{"t":23,"type":"tap","x":1,"y":2}"#,
            #"{"count":3,"t":24,"type":"insert"}"#,
            #"{"t":30,"type":"end"}"#,
        ].joined(separator: "\n") + "\n"
        #expect(trace.jsonLines() == expected)
        var back = try Trace.read(from: expected, file: "x.jsonl")
        #expect(back.jsonLines() == expected)
        back.events[4] = TraceEvent(t: 21, .wheel(dx: 0, dy: 53.333))
        var original = trace
        original.events[4] = TraceEvent(t: 21, .wheel(dx: 0, dy: 53.333))
        #expect(back == original)
    }

    @Test(arguments: [
        (12.5, "12.5"), (-0.0, "0"), (0.0001, "0"), (0.0005, "0.001"), (-3.25, "-3.25"), (1_000_000, "1000000"),
        (0.1 + 0.2, "0.3"), (-0.0004, "0"), (7.05, "7.05"), (2.0 / 3.0, "0.667"),
    ])
    func numbersAreWrittenAsFixedThousandths(value: Double, text: String) {
        #expect(TraceNumberFormat.format(value) == text)
    }

    /// Each bad line names its 1-based line and field.
    @Test(arguments: [
        (#"{"refresh_rate":60,"screen_scale":1,"source":"s","type":"header","version":2,"viewport":{"height":1,"width":1}}"#, 1, "version"),
        (#"{"refresh_rate":60,"screen_scale":1,"source":"s","type":"header","version":1,"viewport":{"width":1}}"#, 1, "viewport.height"),
        (#"{"refresh_rate":60,"screen_scale":1,"source":"s","type":"header","version":1,"viewport":{"height":1,"width":-1}}"#, 1, "viewport.width"),
        (header + "\n" + #"{"type":"down","x":1,"y":2}"#, 2, "t"),
        (header + "\n" + #"{"t":5,"type":"down","x":1,"y":2}"# + "\n" + #"{"t":4,"type":"move","x":1,"y":2}"#, 3, "t"),
        (header + "\n" + #"{"t":5,"type":"down","x":NaN,"y":2}"#, 2, "x"),
        (header + "\n" + #"{"t":5,"type":"down","x":1,"y":1e999}"#, 2, "y"),
        (header + "\n" + #"{"t":5,"type":"swipe","x":1,"y":2}"#, 2, "type"),
        (header + "\n" + #"{"t":5,"type":"down","x":1,"y":2,"z":3}"#, 2, "z"),
        (header + "\n" + #"{"t":5,"type":"move","x":1,"y":2}"#, 2, "type"),
        (header + "\n\n" + #"{"t":5,"type":"end"}"# + "\n" + #"{"t":6,"type":"insert","count":1}"#, 4, "type"),
        (header + "\n" + #"{"t":5,"type":"insert","count":1.5}"#, 2, "count"),
        (header + "\n" + #"{"t":5,"type":"wheel","dx":"1","dy":2}"#, 2, "dx"),
        (header + "\n" + #"{"t":5,"type":"end""#, 2, "(line)"),
    ])
    func malformedLinesNameFileLineAndField(text: String, line: Int, field: String) {
        #expect {
            try Trace.read(from: text, file: "bad.jsonl")
        } throws: { error in
            guard case .malformed(let file, let badLine, let badField, _) = error as? TraceError else { return false }
            return file == "bad.jsonl" && badLine == line && badField == field
        }
    }

    @Test func anEmptyFileIsUnusable() {
        #expect(throws: TraceError.unusable(file: "e.jsonl", reason: "empty trace: no header line")) {
            try Trace.read(from: "\n", file: "e.jsonl")
        }
    }
}
