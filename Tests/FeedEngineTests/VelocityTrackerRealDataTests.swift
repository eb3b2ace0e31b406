import FeedEngine
import FeedLayout
import FeedSimTestSupport
import Foundation
import Testing

/// The real recordings in `../shared/data/real` (see SOURCES.md there).
private enum SharedRealData {
    /// Rows of a CSV file (no quoted fields in these files) as dictionaries by header name.
    static func rows(_ name: String) throws -> [[String: String]] {
        let directory = try #require(RealData.directory)
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, fields))
        }
    }
}

@Suite struct VelocityTrackerRealDataTests {
    /// A reference velocity to check: gesture, axis, strategy, expected px/s.
    struct Reference: CustomStringConvertible {
        var gesture: String
        var axis: String
        var strategy: String
        var expected: Double
        var measured: Double
        var description: String { "\(gesture) \(axis) \(strategy): expected \(expected), measured \(measured)" }
    }

    /// Feeds each AOSP touch gesture's DOWN and MOVE samples (the UP carries no new position,
    /// and Android ignores it) to a fresh tracker and compares with Android's reference.
    func aospReferences() throws -> [Reference] {
        let rows = try SharedRealData.rows("aosp-velocitytracker-flings.csv").filter { $0["source"] == "touchscreen" }
        var order: [String] = []
        var byGesture: [String: [[String: String]]] = [:]
        for row in rows {
            let id = row["gesture_id"]!
            if byGesture[id] == nil { order.append(id) }
            byGesture[id, default: []].append(row)
        }
        var references: [Reference] = []
        for id in order {
            let samples = byGesture[id]!
            for (strategy, configuration) in [("impulse", VelocityTracker.Configuration.androidImpulse),
                                              ("lsq2", .androidLSQ2)] {
                var tracker = VelocityTracker(configuration)
                for row in samples where row["action"] != "UP" {
                    tracker.addSample(Point(x: Double(row["x_px"]!)!, y: Double(row["y_px"]!)!), t: Double(row["t_ms"]!)!)
                }
                let v = tracker.velocity()
                for (axis, measured) in [("x", v.x), ("y", v.y)] {
                    if let expected = Double(samples[0]["ref_v\(axis)_\(strategy)_px_s"] ?? "") {
                        references.append(Reference(gesture: id, axis: axis, strategy: strategy,
                                                    expected: expected, measured: measured))
                    }
                }
            }
        }
        return references
    }

    @Test(.enabled(if: RealData.isAvailable, "\(RealData.skipMessage)"))
    func androidRecordedFlingsMatchAndroidsReferenceVelocitiesWithinTwentyPercent() throws {
        let references = try aospReferences()
        // 19 touch gestures; SOURCES.md: every gesture has y references for impulse, most for lsq2.
        #expect(references.count >= 50)
        #expect(references.contains { $0.strategy == "impulse" } && references.contains { $0.strategy == "lsq2" })
        for reference in references {
            // ±20 %: the tolerance Android's own VelocityTracker_test applies to these recordings.
            #expect(abs(reference.measured - reference.expected) <= 0.2 * abs(reference.expected),
                    "\(reference.description)")
        }
    }

    /// Flutter's test feeds every DOWN and MOVE of the 13-drag session to ONE tracker (no
    /// reset between drags: the 191–648 ms pauses exceed the 40 ms stop rule) and reads it at
    /// each UP. Flutter's tracker is the same estimator as ours with the `.flutter` preset
    /// (unweighted quadratic least squares, 100 ms, 20 samples, 40 ms gap, ≥ 3 samples), so only
    /// rounding differs: we hold it to Flutter's own test tolerance, ±0.1 %, plus 0.01 px/s for
    /// the near-zero x components.
    @Test(.enabled(if: RealData.isAvailable, "\(RealData.skipMessage)"))
    func flutterRecordedDragsMatchFlutterTrackerWithinItsOwnTolerance() throws {
        let events = try SharedRealData.rows("flutter-velocity-tracker-drags.csv")
        let expected = try SharedRealData.rows("flutter-velocity-tracker-expected.csv")
        #expect(events.count == 306)
        #expect(expected.count == 13)
        var tracker = VelocityTracker(.flutter)
        var measured: [Int: Point] = [:]
        for event in events {
            let point = Point(x: Double(event["x"]!)!, y: Double(event["y"]!)!)
            let t = Double(event["t_ms"]!)!
            if event["action"] == "UP" {
                measured[Int(event["gesture_index"]!)!] = tracker.velocity(atLiftOff: t)
            } else {
                tracker.addSample(point, t: t)
            }
        }
        #expect(measured.count == 13)
        for row in expected {
            let gesture = Int(row["gesture_index"]!)!
            let v = try #require(measured[gesture])
            let vx = Double(row["vx"]!)!
            let vy = Double(row["vy"]!)!
            #expect(abs(v.x - vx) <= 0.001 * abs(vx) + 0.01, "gesture \(gesture) vx: expected \(vx), measured \(v.x)")
            #expect(abs(v.y - vy) <= 0.001 * abs(vy) + 0.01, "gesture \(gesture) vy: expected \(vy), measured \(v.y)")
        }
    }
}
