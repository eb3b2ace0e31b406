import FeedReplay
import Foundation
import Testing

@testable import FeedReport

@Suite struct ReplayHTMLReportTests {
    func html() throws -> String {
        let (report, recording) = try TinyReplay.run()
        return try ReplayHTMLReport.html(report: report, recording: try #require(recording), title: "tiny")
    }

    /// `data-points` of each series, by name.
    func seriesPoints(_ html: String) -> [String: Int] {
        var out: [String: Int] = [:]
        let pattern = try! NSRegularExpression(
            pattern: "data-series=\"([^\"]+)\" data-points=\"(\\d+)\" points=\"([^\"]*)\"")
        for m in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let name = String(html[Range(m.range(at: 1), in: html)!])
            let count = Int(html[Range(m.range(at: 2), in: html)!])!
            let points = html[Range(m.range(at: 3), in: html)!].split(separator: " ").count
            #expect(points == count, "series \(name): data-points \(count), \(points) in points")
            out[name] = count
        }
        return out
    }

    @Test func plotsHaveTheHandComputedSeriesAndPoints() throws {
        let points = seriesPoints(try html())
        // One point per frame (91) for per-frame series; 79 for those drawn only once items are loaded.
        #expect(
            points == [
                "offset": 91, "visible-first": 79, "visible-last": 79, "loaded-first": 79, "loaded-last": 79,
                "row-missing": 91, "no-content": 91, "cost": 91, "live": 91, "created": 91, "reused": 91,
            ])
    }

    @Test func pageLoadsAreSpansPerDirectionAndRowBatchesTheirOwnLane() throws {
        let page = try html()
        #expect(occurrences(of: "data-lane=\"Init\"", in: page) == 1)
        #expect(occurrences(of: "data-lane=\"More\"", in: page) == 3)
        #expect(occurrences(of: "data-lane=\"Refresh\"", in: page) == 0)
        #expect(occurrences(of: "data-lane=\"Rows\"", in: page) == 6)
        #expect(occurrences(of: "class=\"failmark\"", in: page) == 0)
    }

    @Test func hitchesAreMarkedOncePerHitchOfTheReport() throws {
        let (report, recording) = try TinyReplay.run()
        let page = try ReplayHTMLReport.html(report: report, recording: try #require(recording), title: "tiny")
        // The two jumps (500 and 1000 ms) move the content and configure many cells at once.
        #expect(report.hitches.count == 2)
        #expect(occurrences(of: "<circle class=\"hitch\"", in: page) == 2)
        #expect(try #require(recording).frames.filter(\.hitch).map(\.index) == [30, 60])
    }

    @Test func summaryListsTheReportsFiguresWithUnits() throws {
        let page = try html()
        #expect(page.contains("<td>frames</td><td>91</td>"))
        #expect(page.contains("<td>time_to_first_content_ms</td><td>400 ms</td>"))
        #expect(page.contains("<td>distance_pt</td><td>2400 pt</td>"))
        #expect(page.contains("<td>pages.more</td><td>3</td>"))
    }

    @Test func pageIsSelfContained() throws {
        let page = try html()
        #expect(!page.contains("src="))
        #expect(!page.contains("href="))
        #expect(!page.contains("@import"))
        // The only URL is the SVG namespace the script creates elements in.
        #expect(occurrences(of: "http", in: page) == occurrences(of: "http://www.w3.org/2000/svg", in: page))
    }

    @Test func sameReplayGivesTheSameBytes() throws {
        #expect(try html() == html())
    }
}

@Suite struct PerfettoTraceTests {
    struct Event {
        var ph: String
        var ts: Double
        var pid: Int
        var tid: Int
        var cat: String?
        var id: String?
        var dur: Double?
        var name: String
    }

    /// Parses and checks the Trace Event Format's rules (Google's "Trace Event Format" document):
    /// the JSON object form with `traceEvents`; every `ph` one of the format's; `ts` (µs) a finite
    /// number ≥ 0; `X` events carry `dur` ≥ 0; every `b` has a later-or-equal `e` with the same
    /// `cat` and `id` and each `e` closes an open `b`; `M` events name the process and threads;
    /// `ts` never decreases along a track (pid, tid) in file order; main-thread slices do not overlap.
    func validate(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Event] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let raw = try #require(root["traceEvents"] as? [[String: Any]])
        // The phases of Chrome DevTools' trace model (chrome-devtools-frontend, models/trace/types/TraceEvents.ts,
        // `enum Phase`), plus the legacy lowercase instant `i` and the context phases `(` `)` of the format document.
        let known: Set<String> = [
            "B", "E", "X", "I", "i", "C", "b", "n", "e", "T", "S", "F", "p", "s", "t", "f", "P", "N", "O", "D", "M", "V",
            "v", "R", "c", "(", ")",
        ]
        var events: [Event] = []
        for e in raw {
            let ph = try #require(e["ph"] as? String)
            #expect(known.contains(ph), "unknown ph \(ph)", sourceLocation: sourceLocation)
            let event = Event(
                ph: ph, ts: (e["ts"] as? Double) ?? 0, pid: try #require(e["pid"] as? Int),
                tid: (e["tid"] as? Int) ?? 0,
                cat: e["cat"] as? String, id: e["id"] as? String, dur: e["dur"] as? Double,
                name: try #require(e["name"] as? String))
            if ph != "M" {
                #expect(e["ts"] is NSNumber && event.ts.isFinite && event.ts >= 0, sourceLocation: sourceLocation)
            }
            if ph == "X" { #expect((event.dur ?? -1) >= 0, sourceLocation: sourceLocation) }
            events.append(event)
        }
        var open: [String: Double] = [:]
        for e in events where e.ph == "b" || e.ph == "e" {
            let key = "\(e.cat ?? "")/\(e.id ?? "")"
            if e.ph == "b" {
                #expect(open[key] == nil, "\(key) begun twice", sourceLocation: sourceLocation)
                open[key] = e.ts
            } else {
                let begun = open.removeValue(forKey: key)
                #expect(begun != nil, "\(key) ends without a begin", sourceLocation: sourceLocation)
                #expect((begun ?? .infinity) <= e.ts, sourceLocation: sourceLocation)
            }
        }
        #expect(open.isEmpty, "unmatched begins \(open.keys.sorted())", sourceLocation: sourceLocation)
        var last: [String: Double] = [:]
        for e in events where e.ph != "M" {
            let track = "\(e.pid)/\(e.tid)"
            #expect(e.ts >= last[track] ?? 0, "time goes back on track \(track)", sourceLocation: sourceLocation)
            last[track] = e.ts
        }
        let slices = events.filter { $0.ph == "X" }
        for (a, b) in zip(slices, slices.dropFirst()) {
            #expect(a.ts + a.dur! <= b.ts + 1e-6, "\(a.name) overlaps \(b.name)", sourceLocation: sourceLocation)
        }
        let metadata = events.filter { $0.ph == "M" }.map(\.name)
        #expect(
            metadata.contains("process_name") && metadata.filter { $0 == "thread_name" }.count == 2,
            sourceLocation: sourceLocation)
        return events
    }

    @Test func traceFollowsTheFormatsRules() throws {
        let recording = try #require(try TinyReplay.run().1)
        let events = try validate(PerfettoTrace.json(recording: recording, source: "tiny"))
        // 91 frames; 4 page loads and 6 row batches, begin and end each.
        #expect(events.filter { $0.ph == "X" }.count == 91)
        #expect(events.filter { $0.ph == "b" && $0.cat == "page" }.count == 4)
        #expect(events.filter { $0.ph == "b" && $0.cat == "rows" }.count == 6)
        #expect(events.filter { $0.ph == "e" }.count == 10)
        #expect(Set(events.map(\.ph)) == ["M", "X", "C", "b", "e"])
    }

    @Test func timesAreMicroseconds() throws {
        let recording = try #require(try TinyReplay.run().1)
        let events = try validate(PerfettoTrace.json(recording: recording, source: "tiny"))
        // Init is answered at 200 ms = 200 000 µs; frame 60's vsync is 1000 ms = 1 000 000 µs.
        #expect(events.first { $0.ph == "e" && $0.cat == "page" }?.ts == 200_000)
        #expect(events.first { $0.name == "frame 60" }?.ts == 1_000_000)
        // Frame 0 costs the base 2 ms (nothing to lay out or configure): dur 2000 µs.
        #expect(events.first { $0.name == "frame 0" }?.dur == 2000)
        // The content offset counter changes twice (0 → 900 → 2400) after its first value.
        #expect(events.filter { $0.ph == "C" && $0.name == "content offset" }.map(\.ts) == [0, 500_000, 1_000_000])
    }

    @Test func failedAndUnansweredSpansStillEnd() throws {
        var options = TinyReplay.options()
        options.faults = try FaultModel.parse("outage=0-300")
        let recording = try #require(try TinyReplay.run(options: options).1)
        _ = try validate(PerfettoTrace.json(recording: recording, source: "tiny"))
    }

    @Test func sameReplayGivesTheSameBytes() throws {
        let a = try #require(try TinyReplay.run().1)
        let b = try #require(try TinyReplay.run().1)
        #expect(PerfettoTrace.json(recording: a, source: "tiny") == PerfettoTrace.json(recording: b, source: "tiny"))
    }
}
