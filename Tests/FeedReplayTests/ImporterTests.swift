import FeedLayout
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReplay

@Suite(.enabled(if: RealData.isAvailable, "\(RealData.skipMessage)"))
struct RealRecordingImporterTests {
    /// SOURCES.md: 306 events (13 DOWN, 280 MOVE, 13 UP) over 7,525 ms; gesture 3 goes y 526 → 335.
    @Test func flutterDragsKeepTheirRealClock() throws {
        let (path, text) = try TraceTestData.real("flutter-velocity-tracker-drags.csv")
        let trace = try TouchCSVImporter().importTrace(from: text, file: path)
        let touches = trace.touchPoints
        #expect(touches.count == 306)
        #expect(touches.filter { $0.kind == "down" }.count == 13 && touches.filter { $0.kind == "up" }.count == 13)
        #expect(touches.first?.t == 0 && touches.last?.t == 7525)
        let downs = touches.enumerated().filter { $0.element.kind == "down" }.map(\.offset)
        let ups = touches.enumerated().filter { $0.element.kind == "up" }.map(\.offset)
        #expect(abs(touches[downs[3]].y - 526) < 1 && abs(touches[ups[3]].y - 335) < 1)
    }

    /// AOSP rows: each gesture on its own clock, so gestures are placed 500 ms apart; pixels / 2.625.
    @Test func aospFlingsArePlacedOneAfterAnother() throws {
        let (path, text) = try TraceTestData.real("aosp-velocitytracker-flings.csv")
        let lines = text.split(separator: "\n").dropFirst()
        let trace = try TouchCSVImporter(pixelsPerPoint: 2.625).importTrace(from: text, file: path)
        #expect(trace.events.count == lines.count + 1)  // one event per row, plus end
        // First row: SwordfishFlingDown DOWN at (271, 96) px.
        #expect(trace.events[0] == TraceEvent(t: 0, .touchDown(Point(x: 271 / 2.625, y: 96 / 2.625))))
        // Its UP is at 96.948871 ms; the next gesture's DOWN starts 500 ms later.
        let firstUp = try #require(trace.events.firstIndex { if case .touchUp = $0.kind { true } else { false } })
        #expect(abs(trace.events[firstUp].t - 96.948871) < 1e-9)
        #expect(abs(trace.events[firstUp + 1].t - (96.948871 + 500)) < 1e-9)
        // Rotary rows: dy = −AXIS_SCROLL × 64; the first is −0.0501 → 3.2064.
        let wheels = trace.events.compactMap { if case .wheel(_, let dy) = $0.kind { dy } else { nil } }
        #expect(wheels.count == lines.filter { $0.contains(",SCROLL,") }.count)
        #expect(abs(wheels[0] - 0.0501 * 64) < 1e-9)
    }

    /// 48 wheel notches of ±53.333 (23 toward the end, 25 back): counted in the raw text.
    @Test func chromeWheelEventsKeepTheirDeltas() throws {
        let (path, text) = try TraceTestData.real("chrome-trace-multiple_input_latency.json")
        let notches = text.components(separatedBy: "InputHandlerProxy::handle_input wheel scroll").count - 1
        let trace = try ChromeTraceImporter().importTrace(from: Data(text.utf8), file: path)
        let dys = trace.events.compactMap { if case .wheel(_, let dy) = $0.kind { dy } else { nil } }
        #expect(dys.count == notches && notches == 48)
        #expect(dys.filter { $0 > 0 }.count == 23 && dys.filter { $0 < 0 }.count == 25)
        #expect(dys.allSatisfy { abs(abs($0) - 53.333) < 0.001 })
        #expect(trace.events.first?.t == 0)
    }

    /// With a drag speed the 255 scroll updates become deltas adding up to speed × (last update − begin).
    @Test func chromeTouchDragUsesUpdateTimingAtTheGivenSpeed() throws {
        let (path, text) = try TraceTestData.real("chrome-trace-multiple_input_latency.json")
        let trace = try ChromeTraceImporter(dragSpeed: 300).importTrace(from: Data(text.utf8), file: path)
        let steps = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])["traceEvents"] as! [[String: Any]]
        func times(_ step: String) -> [Double] {
            steps.filter { $0["name"] as? String == "InputLatency" && $0["ph"] as? String == "T" && ($0["args"] as? [String: Any])?["step"] as? String == step }
                .map { ($0["ts"] as! NSNumber).doubleValue }.sorted()
        }
        let updates = times("GestureScrollUpdate"), begin = times("GestureScrollBegin")[0]
        #expect(updates.count == 255)
        let dragDy = trace.events.prefix { $0.t * 1000 <= updates.last! - begin + 1 }.compactMap { if case .wheel(_, let dy) = $0.kind, dy != 53.333, dy != -53.333 { dy } else { nil } }
        #expect(abs(dragDy.reduce(0, +) - 300 * (updates.last! - begin) / 1e6) < 0.01)
    }
}

@Suite struct ImporterMalformedInputTests {
    @Test(arguments: [
        ("seq,action,t_ms,x,y\n0,DOWN,0,1,2\n1,WIGGLE,5,1,2\n", 3, "action"),
        ("seq,action,x,y\n0,DOWN,1,2\n", 1, "t_ms"),
        ("seq,action,t_ms,x,y\n0,MOVE,0,1,2\n", 2, "action"),
        ("seq,action,t_ms,x,y\n0,DOWN,0,1,2\n1,MOVE,5,nan,2\n", 3, "x"),
        ("seq,action,t_ms,x,y\n0,DOWN,10,1,2\n1,MOVE,5,1,2\n", 3, "t_ms"),
        ("seq,action,t_ms,x,y\n0,DOWN,10,1\n", 2, "(row)"),
        // A quoted comma is one field: "5,5" is not a number (it was two fields, then a count mismatch).
        ("seq,action,t_ms,x,y\n0,DOWN,0,1,2\n1,MOVE,\"5,5\",1,2\n", 3, "t_ms"),
        ("seq,action,t_ms,x,y\n0,DOWN,0,1,\"2\n", 2, "(row)"),
    ])
    func touchCSVErrorsNameLineAndColumn(text: String, line: Int, field: String) {
        #expect {
            try TouchCSVImporter().importTrace(from: text, file: "t.csv")
        } throws: { error in
            guard case .malformed(let file, let l, let f, _) = error as? TraceError else { return false }
            return file == "t.csv" && l == line && f == field
        }
    }

    /// Quoting as RFC 4180 (spreadsheets quote every field): the same trace as the plain file.
    @Test func touchCSVReadsQuotedFieldsAsPlainOnes() throws {
        let plain = "gesture_id,action,t_ms,x,y\ng,DOWN,0,10,20\ng,MOVE,16,10,40\ng,UP,20,10,60\n"
        let quoted = #""gesture_id","action","t_ms","x","y""# + "\r\n"
            + #""g","DOWN","0","10","20""# + "\r\n" + #""g","MOVE","16","10","40""# + "\r\n"
            + #""g","UP","20","10","60""# + "\r\n"
        let a = try TouchCSVImporter().importTrace(from: plain, file: "p.csv")
        let b = try TouchCSVImporter().importTrace(from: quoted, file: "p.csv")
        #expect(a.events == b.events)
        #expect(b.events.count == 4)
    }

    @Test func touchCSVPlacesGesturesWithAGivenPause() throws {
        // Two gestures on one clock, forced apart: the second starts 1,000 ms after the first ends (t 20).
        let text = "t_ms,action,x,y\n100,DOWN,0,10\n120,UP,0,20\n130,DOWN,0,30\n150,UP,0,40\n"
        let trace = try TouchCSVImporter(pause: 1000).importTrace(from: text, file: "p.csv")
        #expect(trace.events.map(\.t) == [0, 20, 1020, 1040, 1040])
        let kept = try TouchCSVImporter().importTrace(from: text, file: "p.csv")
        #expect(kept.events.map(\.t) == [0, 20, 30, 50, 50])
    }

    @Test(arguments: [
        (#"{"traceEvents":[{"name":"x","ts":1},{"name":"InputHandlerProxy::handle_input wheel scroll","ts":5,"args":{"deltaX":0}}]}"#, 1, "args.deltaY"),
        (#"[{"name":"InputHandlerProxy::handle_input wheel scroll","args":{"deltaX":0,"deltaY":1}}]"#, 0, "ts"),
        (#"[3]"#, 0, "(event)"),
    ])
    func chromeErrorsNameEventIndexAndField(json: String, index: Int, field: String) {
        #expect {
            try ChromeTraceImporter().importTrace(from: Data(json.utf8), file: "c.json")
        } throws: { error in
            guard case .malformedEvent(let file, let i, let f, _) = error as? TraceError else { return false }
            return file == "c.json" && i == index && f == field
        }
    }

    @Test func rrwebFixtureGivesDocumentOffsetsTapAndResize() throws {
        let url = TraceTestData.fixture("rrweb-synthetic-session.json")
        let trace = try RRWebImporter().importTrace(from: try Data(contentsOf: url), file: url.path)
        #expect(trace.header.viewport == Size(width: 390, height: 844))
        // Times from the first event (…000000): 500, 700, 1000, 1500, 2000 ms; the inner scroller (id 57) is dropped.
        #expect(trace.events == [
            TraceEvent(t: 500, .offset(Point(x: 0, y: 120))),
            TraceEvent(t: 700, .offset(Point(x: 0, y: 480.5))),
            TraceEvent(t: 1000, .tap(Point(x: 100, y: 200))),
            TraceEvent(t: 1500, .resize(Size(width: 844, height: 390))),
            TraceEvent(t: 2000, .offset(Point(x: 0, y: 300))),
            TraceEvent(t: 2000, .end),
        ])
    }

    @Test(arguments: [
        (#"[{"type":4,"data":{"width":390,"height":844},"timestamp":10},{"type":3,"data":{"source":3,"id":1,"x":0},"timestamp":20}]"#, 1, "data.y"),
        (#"[{"type":4,"data":{"width":390,"height":844},"timestamp":10},{"type":3,"data":{"source":3,"id":1,"x":0,"y":1},"timestamp":5}]"#, 1, "timestamp"),
        (#"[{"type":4,"data":{"width":0,"height":844},"timestamp":10}]"#, 0, "data.width"),
    ])
    func rrwebErrorsNameEventIndexAndField(json: String, index: Int, field: String) {
        #expect {
            try RRWebImporter().importTrace(from: Data(json.utf8), file: "r.json")
        } throws: { error in
            guard case .malformedEvent(let file, let i, let f, _) = error as? TraceError else { return false }
            return file == "r.json" && i == index && f == field
        }
    }
}
