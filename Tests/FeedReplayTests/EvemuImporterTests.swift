import FeedLayout
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReplay

@Suite(.enabled(if: RealData.isAvailable, "\(RealData.skipMessage)"))
struct EvemuImporterTests {
    /// The `E:` lines split into words, found by plain text (the oracle for the importer's parser).
    static func eventWords(_ text: String) -> [[Substring]] {
        text.split(separator: "\n").filter { $0.hasPrefix("E:") }.map { $0.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace) }
    }

    @Test(arguments: ["evemu-EP0430M09-1-finger-drag-up-down.events", "evemu-EP0430M09-2-finger-scroll-down.events",
                      "evemu-Atmel-maXTouch-1-finger-drag-up-down.events", "evemu-Synaptics-TouchPad-2-finger-vert-scroll.events"])
    func framesAreTheSynReportLinesAndTimesSpanTheFile(name: String) throws {
        let (path, text) = try TraceTestData.real(name)
        let words = Self.eventWords(text)
        let synReports = words.filter { Int($0[2], radix: 16) == 0 && Int($0[3], radix: 16) == 0 }.count
        let recording = try EvemuRecording(parsing: text, file: path)
        #expect(recording.frames.count == synReports)
        // SOURCES.md gives 183, 98, 150 and 82 frames for these four recordings.
        #expect([183, 98, 150, 82].contains(synReports))
        let first = try #require(Double(words.first![1])), last = try #require(Double(words.last![1]))
        var importer = EvemuImporter()
        if name.contains("Synaptics") {
            importer.axisX = .init(minimum: 1472, maximum: 5472)
            importer.axisY = .init(minimum: 1408, maximum: 4448)
        }
        let trace = try importer.importTrace(from: text, file: path)
        #expect(abs(trace.durationMilliseconds - (last - first) * 1000) < 0.002)
        #expect(trace.events.last?.kind == .end)
    }

    /// One finger: the y travel in points = (max − min raw y) × viewport height / (axis max − min + 1).
    @Test(arguments: [("evemu-EP0430M09-1-finger-drag-up-down.events", 767.0), ("evemu-Atmel-maXTouch-1-finger-drag-up-down.events", 479.0)])
    func oneFingerTravelMapsTheAxisRangeOntoTheViewport(name: String, axisMax: Double) throws {
        let (path, text) = try TraceTestData.real(name)
        let ys = Self.eventWords(text).filter { Int($0[3], radix: 16) == 0x36 }.compactMap { Double($0[4]) }
        let rawTravel = try #require(ys.max()) - ys.min()!
        for height in [axisMax + 1, 240.0] {
            let trace = try EvemuImporter(viewport: Size(width: 400, height: height)).importTrace(from: text, file: path)
            let touchYs = trace.touchPoints.map(\.y)
            let travel = touchYs.max()! - touchYs.min()!
            #expect(abs(travel - rawTravel * height / (axisMax + 1)) < 1e-9)
            #expect(trace.touchPoints.first?.kind == "down" && trace.touchPoints.last?.kind == "up")
            #expect(trace.touchPoints.filter { $0.kind == "down" }.count == 1)
        }
    }

    /// Two fingers slide up by about 330 and 275 units (SOURCES.md): the virtual finger moves by
    /// their mean, about 302, without a jump when the second finger lands 7.5 ms after the first.
    @Test func twoFingerScrollFollowsTheMeanWithoutAJump() throws {
        let (path, text) = try TraceTestData.real("evemu-EP0430M09-2-finger-scroll-down.events")
        let trace = try EvemuImporter().importTrace(from: text, file: path)
        let points = trace.touchPoints
        #expect(points.first?.y == 547)  // the first finger lands at (930, 547)
        #expect(abs((points.first!.y - points.last!.y) - 302.5) < 10)
        let steps = zip(points, points.dropFirst()).map { abs($1.y - $0.y) }
        #expect(steps.max()! < 25)
    }

    /// Touchpad, natural scrolling: the wheel deltas sum to −(change of the fingers' mean y) × 800 / 3041.
    @Test func touchpadTwoFingerMotionBecomesNaturalWheelDeltas() throws {
        let (path, text) = try TraceTestData.real("evemu-Synaptics-TouchPad-2-finger-vert-scroll.events")
        // Oracle: follow slot and y by hand; both slots are down in every frame but the last.
        var slot = 0
        var y: [Int: Double] = [:]
        var frames: [[Int: Double]] = []
        for w in Self.eventWords(text) {
            switch (Int(w[2], radix: 16)!, Int(w[3], radix: 16)!) {
            case (3, 0x2f): slot = Int(w[4])!
            case (3, 0x36): y[slot] = Double(w[4])!
            case (0, 0): frames.append(y)
            default: break
            }
        }
        let bothDown = frames.dropLast()
        let meanFirst = (bothDown.first![0]! + bothDown.first![1]!) / 2, meanLast = (bothDown.last![0]! + bothDown.last![1]!) / 2
        let importer = EvemuImporter(viewport: Size(width: 1280, height: 800), axisX: .init(minimum: 1472, maximum: 5472),
                                     axisY: .init(minimum: 1408, maximum: 4448))
        let trace = try importer.importTrace(from: text, file: path)
        let dy = trace.events.reduce(0.0) { sum, e in if case .wheel(_, let d) = e.kind { sum + d } else { sum } }
        #expect(abs(dy - -(meanLast - meanFirst) * 800 / 3041) < 1e-6)
        #expect(trace.touchPoints.isEmpty)
        var traditional = importer
        traditional.naturalScrolling = false
        let flipped = try traditional.importTrace(from: text, file: path).events.reduce(0.0) { sum, e in
            if case .wheel(_, let d) = e.kind { sum + d } else { sum }
        }
        #expect(abs(flipped + dy) < 1e-9)
    }

    @Test func aHeaderlessRecordingWithoutAxisRangesIsRefused() throws {
        let (path, text) = try TraceTestData.real("evemu-Synaptics-TouchPad-2-finger-vert-scroll.events")
        #expect(throws: TraceError.self) { try EvemuImporter().importTrace(from: text, file: path) }
    }
}

@Suite struct EvemuMalformedInputTests {
    static let good = """
        # EVEMU 1.3
        A: 35 0 99 0 0 0
        A: 36 0 199 0 0 0
        E: 0.000001 0003 0039 0000
        E: 0.000001 0003 0035 0010
        E: 0.000001 0003 0036 0100
        E: 0.000001 0000 0000 0000
        E: 0.010001 0003 0036 0050
        E: 0.010001 0000 0000 0000
        E: 0.020001 0003 0039 -001
        E: 0.020001 0000 0000 0000
        """

    @Test func aSmallHandWrittenRecordingGivesDownMoveUp() throws {
        // Viewport 50 × 100 over axes 0–99 × 0–199: 0.5 pt per unit; y 100 → 50 pt, 50 → 25 pt.
        let trace = try EvemuImporter(viewport: Size(width: 50, height: 100)).importTrace(from: Self.good, file: "h.events")
        #expect(trace.events == [
            TraceEvent(t: 0, .touchDown(Point(x: 5, y: 50))),
            TraceEvent(t: 10, .touchMove(Point(x: 5, y: 25))),
            TraceEvent(t: 20, .touchUp(Point(x: 5, y: 25))),
            TraceEvent(t: 20, .end),
        ])
    }

    @Test(arguments: [("0.010001 0003 0036 zz", "value"), ("0.0x 0003 0036 0050", "time"), ("0.010001 00g3 0036 0050", "type"),
                      ("0.000000 0003 0036 0050", "time")])
    func aBadEventLineNamesLineAndField(replacement: String, field: String) {
        let text = Self.good.replacingOccurrences(of: "0.010001 0003 0036 0050", with: replacement)
        #expect {
            try EvemuImporter().importTrace(from: text, file: "bad.events")
        } throws: { error in
            error as? TraceError == .malformed(file: "bad.events", line: 8, field: field, reason: (error as? TraceError).map(Self.reason) ?? "")
        }
    }

    static func reason(_ error: TraceError) -> String {
        if case .malformed(_, _, _, let reason) = error { reason } else { "" }
    }
}
