import FeedSimTestSupport
import FeedLayout
import Foundation
import Testing

@testable import FeedReplay

@Suite struct TraceSynthesizerTests {
    /// Gestures as lists of (t, y) from down to up.
    static func gestures(_ trace: Trace) -> [[(t: Double, y: Double)]] {
        var result: [[(t: Double, y: Double)]] = []
        for point in trace.touchPoints {
            if point.kind == "down" { result.append([]) }
            result[result.count - 1].append((point.t, point.y))
        }
        return result
    }

    /// Finger speed in pt/s over the last two moves before the up (the up repeats the last move).
    static func releaseSpeed(_ gesture: [(t: Double, y: Double)]) -> Double {
        let a = gesture[gesture.count - 3], b = gesture[gesture.count - 2]
        return abs(b.y - a.y) / (b.t - a.t) * 1000
    }

    @Test(arguments: SynthModel.allCases)
    func sameSeedGivesIdenticalBytesAndAnotherSeedDoesNot(model: SynthModel) {
        let a = TraceSynthesizer(model: model, duration: 30, seed: 42).generate().jsonLines()
        let b = TraceSynthesizer(model: model, duration: 30, seed: 42).generate().jsonLines()
        let c = TraceSynthesizer(model: model, duration: 30, seed: 43).generate().jsonLines()
        #expect(a == b)
        #expect(a != c)
    }

    @Test(arguments: SynthModel.allCases)
    func tracesAreValidStayOnScreenAndEndAtTheDuration(model: SynthModel) throws {
        let trace = TraceSynthesizer(model: model, duration: 60, seed: 7).generate()
        let back = try Trace.read(from: trace.jsonLines(), file: "synth")
        #expect(back.events.count == trace.events.count)
        #expect(trace.events.last == TraceEvent(t: 60_000, .end))
        let ys = trace.touchPoints.map(\.y)
        #expect(ys.min()! >= 0.1 * 844 - 1e-9 && ys.max()! <= 0.9 * 844 + 1e-9)
        // 120 Hz sampling: consecutive moves 8.333 ms apart.
        let gesture = Self.gestures(trace)[0]
        #expect(abs((gesture[2].t - gesture[1].t) - 1000.0 / 120) < 1e-9)
        #expect(Self.gestures(trace).count >= 3)
    }

    @Test func readersLiftAtRestAndPauseLongerThanFlingers() {
        let reader = Self.gestures(TraceSynthesizer(model: .reader, duration: 300, seed: 1).generate())
        let flinger = Self.gestures(TraceSynthesizer(model: .flinger, duration: 300, seed: 1).generate())
        #expect(reader.allSatisfy { Self.releaseSpeed($0) == 0 })
        // Flings leave at 2,000–4,500 pt/s; the discrete last step of s = τ² over n steps reads
        // (2n − 1)/(2n) of it, ≥ 0.9 × for n ≥ 5.
        let speeds = flinger.map(Self.releaseSpeed)
        #expect(speeds.allSatisfy { $0 >= 0.9 * 2000 && $0 <= 4500 * 1.0001 })
        // Median pauses 3,000 vs 250 ms: a reader makes far fewer gestures in the same time.
        #expect(reader.count * 4 < flinger.count)
    }

    /// Oracle: with no momentum (every refresher gesture lifts at rest) the content offset moves by
    /// the finger's travel; finger travel past offset 0 is the pull. Pulls of ≥ 150 pt (more than
    /// 50 pt on screen after the rubber band) happen once per cycle, each after an insert.
    @Test func refresherPullsPastTheThresholdAfterEachInsert() {
        let trace = TraceSynthesizer(model: .refresher, duration: 300, seed: 3).generate()
        var offset = 0.0, deepest = 0.0, lastY = 0.0
        var pulls: [Double] = [], insertsSinceLastPull = 0, pullsAfterInsert = 0
        for event in trace.events {
            switch event.kind {
            case .insert: insertsSinceLastPull += 1
            case .touchDown(let p): lastY = p.y; deepest = 0
            case .touchMove(let p):
                offset -= p.y - lastY
                lastY = p.y
                deepest = min(deepest, offset)
            case .touchUp:
                if -deepest >= 150 {
                    pulls.append(-deepest)
                    if insertsSinceLastPull > 0 { pullsAfterInsert += 1 }
                    insertsSinceLastPull = 0
                }
                #expect(-deepest < 150 ? -deepest <= 41 : true)  // returns overshoot by at most 40 pt
                offset = max(offset, 0)
            default: break
            }
        }
        #expect(pulls.count >= 5)
        #expect(pullsAfterInsert == pulls.count)
        #expect(pulls.allSatisfy { $0 <= 240 + 1e-9 })
    }
}

@Suite struct SeedTracesTests {
    static let directory = RealData.packageFile("Seeds/traces")

    @Test func everyShippedTraceParsesAndHasALicenceNotice() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(files.count >= 7)
        let notice = try String(contentsOf: Self.directory.appendingPathComponent("NOTICE.md"), encoding: .utf8)
        for file in files {
            let trace = try Trace.read(contentsOf: Self.directory.appendingPathComponent(file).path)
            #expect(trace.events.last?.kind == .end, "\(file)")
            #expect(notice.contains("`\(file)`"), "NOTICE.md does not list \(file)")
            // Written by this build's writer: reading and writing again gives the same bytes.
            let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
            #expect(trace.jsonLines() == text, "\(file)")
        }
    }
}
