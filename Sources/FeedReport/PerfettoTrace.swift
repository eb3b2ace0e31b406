import FeedModel
import FeedReplay
import Foundation

/// `--perfetto FILE`: a replay in the Chrome Trace Event Format (JSON object form), which Perfetto
/// UI and `chrome://tracing` open.
///
/// Source: "Trace Event Format" (Google, docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU):
/// `ph` `X` complete events (`ts` and `dur` in microseconds), `b` / `e` nestable async events
/// matched by `cat` and `id`, `C` counters (one series per `args` key), `M` metadata
/// (`process_name`, `thread_name`).
///
/// ```
///  pid 1 "feedsim replay"
///    tid 1 "main thread"   X frame 0, frame 1, …     (dur = simulated cost)
///    tid 2 "network"       b/e page loads (cat "page"), row batches (cat "rows"), by request id
///    counters              content offset, blank fraction, loaded items
/// ```
/// A frame starts at its vsync (k · 1000 / Hz ms) or, when the previous frame ran past it, when
/// the main thread is free, as on a device: slices on the main thread never overlap.
/// Counters are written when their value changes. Events are in time order; same inputs ⇒ same bytes.
public enum PerfettoTrace {
    static let pid = 1
    static let mainThread = 1
    static let networkThread = 2

    /// - Returns: the trace as UTF-8 JSON text.
    public static func json(recording: ReplayRecording, source: String) -> String {
        var events: [(ts: Double, rank: Int, text: String)] = []
        var order = 0
        func add(_ ts: Double, _ fields: [(String, String)]) {
            order += 1
            events.append((ts, order, object(fields)))
        }
        let meta: [(String, Int?, String)] = [
            ("process_name", nil, "feedsim replay: " + source), ("thread_name", mainThread, "main thread"),
            ("thread_name", networkThread, "network"),
        ]
        var metadata: [String] = []
        for (name, tid, value) in meta {
            var fields: [(String, String)] = [
                ("name", string(name)), ("ph", string("M")), ("pid", String(pid)),
                ("args", object([("name", string(value))])),
            ]
            fields.append(("tid", String(tid ?? 0)))
            metadata.append(object(fields))
        }
        var mainFree = 0.0
        var lastOffset: Double?
        var lastBlank: (Double, Double)?
        var lastLoaded: Int?
        for frame in recording.frames {
            let start = max(frame.t, mainFree)
            mainFree = start + frame.cost
            add(
                us(start),
                [
                    ("name", string("frame \(frame.index)")), ("cat", string("frame")), ("ph", string("X")),
                    ("ts", micro(start)), ("dur", micro(frame.cost)), ("pid", String(pid)), ("tid", String(mainThread)),
                    (
                        "args",
                        object([
                            ("frame", String(frame.index)), ("vsync_ms", num(frame.t, 3)),
                            ("hitch", frame.hitch ? "true" : "false"),
                            ("cells_created", String(frame.created)), ("cells_reused", String(frame.reused)),
                            ("live_cells", String(frame.liveCells)),
                        ])
                    ),
                ])
            if lastOffset != frame.offset {
                lastOffset = frame.offset
                add(us(frame.t), counter("content offset", frame.t, [("offset_pt", num(frame.offset, 3))]))
            }
            let blank = (frame.rowMissingFraction, frame.noContentFraction)
            if lastBlank.map({ $0 != blank }) ?? true {
                lastBlank = blank
                add(
                    us(frame.t),
                    counter(
                        "blank fraction", frame.t, [("rows_missing", num(blank.0, 6)), ("no_content", num(blank.1, 6))])
                )
            }
            if lastLoaded != frame.loadedItems {
                lastLoaded = frame.loadedItems
                add(us(frame.t), counter("loaded items", frame.t, [("items", String(frame.loadedItems))]))
            }
        }
        let end = recording.frames.last?.t ?? 0
        for span in recording.pages {
            let id = "page-\(span.id)-\(span.attempt)"
            let name = "\(span.kind.rawValue) (\(span.direction.rawValue))"
            var args: [(String, String)] = [("request", String(span.id)), ("attempt", String(span.attempt))]
            add(us(span.issued), async("b", name, "page", id, span.issued, args))
            args.append(
                (
                    "outcome",
                    string(span.failure.map { "failed: " + $0 } ?? (span.answered == nil ? "not answered" : "page"))
                ))
            add(
                us(span.answered ?? max(end, span.issued)),
                async("e", name, "page", id, span.answered ?? max(end, span.issued), args))
        }
        for span in recording.rows {
            let id = "rows-\(span.fetchID)"
            let name = "rows (\(span.count))"
            add(
                us(span.issued),
                async(
                    "b", name, "rows", id, span.issued,
                    [("fetch", String(span.fetchID)), ("count", String(span.count))]))
            add(
                us(span.answered ?? max(end, span.issued)),
                async("e", name, "rows", id, span.answered ?? max(end, span.issued), []))
        }
        events.sort { ($0.ts, $0.rank) < ($1.ts, $1.rank) }
        let all = metadata + events.map(\.text)
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + all.joined(separator: ",\n") + "\n]}\n"
    }

    private static func us(_ ms: Double) -> Double { (ms * 1000 * 1000).rounded() / 1000 }
    private static func micro(_ ms: Double) -> String { num(ms * 1000, 3) }

    private static func counter(_ name: String, _ t: Double, _ args: [(String, String)]) -> [(String, String)] {
        [
            ("name", string(name)), ("ph", string("C")), ("ts", micro(t)), ("pid", String(pid)),
            ("tid", String(mainThread)), ("args", object(args)),
        ]
    }

    private static func async(
        _ ph: String, _ name: String, _ cat: String, _ id: String, _ t: Double, _ args: [(String, String)]
    ) -> [(String, String)] {
        [
            ("name", string(name)), ("cat", string(cat)), ("ph", string(ph)), ("id", string(id)), ("ts", micro(t)),
            ("pid", String(pid)), ("tid", String(networkThread)), ("args", object(args)),
        ]
    }

    /// A JSON object with its keys sorted; values are JSON text already.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.sorted { $0.0 < $1.0 }.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// A JSON string literal (RFC 8259 escapes: ``FeedModel/JSONString/literal(_:)``).
    static func string(_ text: String) -> String { JSONString.literal(text) }
}
