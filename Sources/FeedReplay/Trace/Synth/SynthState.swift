import FeedLayout
import FeedModel
import Foundation

/// The running state of one ``TraceSynthesizer/generate()`` call: the generator, the clock,
/// the events so far and, for the refresher, where its reading drags have taken the content.
struct SynthState {
    let synth: TraceSynthesizer
    var random: SplitMix64
    var events: [TraceEvent] = []
    /// Milliseconds: the time of the last event written.
    var now = 0.0
    let end: Double
    let h: Double
    let w: Double
    var sampleInterval: Double { 1000 / synth.sampleRate }

    init(synth: TraceSynthesizer) {
        self.synth = synth
        random = SplitMix64(seed: synth.seed)
        end = synth.duration * 1000
        h = synth.viewport.height
        w = synth.viewport.width
    }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUnit()
    }

    /// Standard normal by Box–Muller.
    mutating func normal() -> Double {
        let u1 = 1 - random.nextUnit()
        let u2 = random.nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    mutating func pause() -> Double {
        let (median, sigma) = synth.model.pause
        return median * exp(sigma * normal())
    }

    /// One gesture, as finger positions at sample times, not yet placed in time.
    struct Gesture {
        /// Offsets in ms from the `down` and the finger's position.
        var samples: [(dt: Double, point: Point)]
    }

    /// A drag or fling moving the finger by `travel` points in y (negative = up the screen).
    mutating func gesture(travel: Double, fling: Bool, speed: Double, startY: Double, hold: Double) -> Gesture {
        let x0 = uniform(0.3 * w...0.7 * w)
        let drift = uniform(-12...12)
        let duration = fling ? 2 * abs(travel) / speed * 1000 : uniform(350...700)
        let steps = max(2, Int((duration / sampleInterval).rounded()))
        var samples: [(Double, Point)] = [(0, Point(x: x0, y: startY))]
        for k in 1...steps {
            let tau = Double(k) / Double(steps)
            let s = fling ? tau * tau : tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)
            samples.append((Double(k) * sampleInterval, Point(x: x0 + drift * tau, y: startY + travel * s)))
        }
        if hold > 0 {
            let last = samples[samples.count - 1].1
            for k in 1...max(1, Int((hold / sampleInterval).rounded())) {
                samples.append((Double(steps + k) * sampleInterval, last))
            }
        }
        return Gesture(samples: samples)
    }

    /// Writes `gesture` starting at `start` ms if it ends before the session does.
    mutating func place(_ gesture: Gesture, at start: Double) -> Bool {
        guard let last = gesture.samples.last, start + last.dt <= end else { return false }
        for (index, sample) in gesture.samples.enumerated() {
            let t = start + sample.dt
            events.append(TraceEvent(t: t, index == 0 ? .touchDown(sample.point) : .touchMove(sample.point)))
        }
        events.append(TraceEvent(t: start + last.dt, .touchUp(last.point)))
        now = start + last.dt
        return true
    }

    /// A drag or fling for the scrolling models; `down` = toward the end of the feed (finger up).
    mutating func scrollGesture(down: Bool) -> Gesture {
        let model = synth.model
        let fling = random.nextUnit() < model.flingShare
        let startY = down ? uniform(0.55 * h...0.85 * h) : uniform(0.15 * h...0.45 * h)
        let room = down ? startY - 0.1 * h : 0.9 * h - startY
        let sign = down ? -1.0 : 1.0
        if fling {
            let speed = uniform(model.flingSpeed)
            let length = min(speed * uniform(80...160) / 2000, room)
            return gesture(travel: sign * length, fling: true, speed: speed, startY: startY, hold: 0)
        }
        let length = min(uniform(model.dragShare) * h, room)
        return gesture(travel: sign * length, fling: false, speed: 0, startY: startY, hold: uniform(50...150))
    }

    mutating func run() {
        if synth.model == .refresher {
            runRefresher()
        } else {
            while place(scrollGesture(down: random.nextUnit() >= synth.model.backShare), at: now + pause()) {}
        }
        events.append(TraceEvent(t: end, .end))
    }

    /// Pull, read 2–4 drags down, drag back to the top, repeat; an insert before each pull.
    mutating func runRefresher() {
        while true {
            let wait = pause()
            let count = 1 + Int(random.next() % 5)
            let insertAt = now + wait / 2
            let startY = uniform(0.1 * h...0.25 * h)
            let pull = gesture(travel: min(uniform(150...240), 0.9 * h - startY), fling: false, speed: 0, startY: startY, hold: uniform(200...400))
            guard insertAt + pull.samples.last!.dt + wait / 2 <= end else { return }
            events.append(TraceEvent(t: insertAt, .insert(count: count)))
            guard place(pull, at: now + wait) else { return }
            var travelled = 0.0
            for _ in 0..<(2 + Int(random.next() % 3)) {
                let drag = scrollGesture(down: true)
                guard place(drag, at: now + pause()) else { return }
                travelled += drag.samples[0].point.y - drag.samples[drag.samples.count - 1].point.y
            }
            var remaining = travelled + 40
            while remaining > 0 {
                let startY = uniform(0.15 * h...0.3 * h)
                let length = min(remaining, 0.6 * h, 0.9 * h - startY)
                guard place(gesture(travel: length, fling: false, speed: 0, startY: startY, hold: uniform(50...150)), at: now + pause() / 3) else { return }
                remaining -= length
            }
        }
    }
}
