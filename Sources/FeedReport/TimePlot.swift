/// One SVG plot over the report's shared time axis (ms from the start of the session): line
/// series, spans in lanes and point markers, with a cursor line the page's script moves to the
/// selected frame.
///
/// Every plot of a report uses the same width, margins and time range, so a time lines up across
/// them. The markup is plain SVG with `data-` attributes the browser check counts
/// (`data-series`, `data-points`, `data-lane`).
struct TimePlot {
    static let width = 960.0
    static let left = 64.0
    static let right = 16.0
    static let top = 8.0
    static let bottom = 22.0

    var id: String
    var title: String
    var height: Double = 150
    /// Time range, ms.
    var tMax: Double
    var yLabel: String
    /// Fixed y range; `nil` takes it from the data (lanes set their own).
    var yRange: ClosedRange<Double>?
    var lanes: [String] = []

    private var series: [(name: String, label: String, points: [(Double, Double)])] = []
    private var spans: [(lane: Int, t0: Double, t1: Double, cls: String, title: String)] = []
    private var markers: [(t: Double, y: Double, cls: String, title: String)] = []
    private var hlines: [(y: Double, cls: String, label: String)] = []
    private var vlines: [(t: Double, cls: String, label: String)] = []

    init(id: String, title: String, tMax: Double, yLabel: String, yRange: ClosedRange<Double>? = nil) {
        self.id = id
        self.title = title
        self.tMax = max(tMax, 1)
        self.yLabel = yLabel
        self.yRange = yRange
    }

    /// A line series: one point per (t ms, value).
    mutating func addSeries(_ name: String, label: String, points: [(Double, Double)]) {
        series.append((name, label, points))
    }

    /// A span from `t0` to `t1` ms in lane `lane` (an index into ``lanes``).
    mutating func addSpan(lane: Int, from t0: Double, to t1: Double, cls: String, title: String) {
        spans.append((lane, t0, t1, cls, title))
    }

    mutating func addMarker(t: Double, y: Double, cls: String, title: String) {
        markers.append((t, y, cls, title))
    }

    mutating func addHorizontalLine(y: Double, cls: String, label: String) {
        hlines.append((y, cls, label))
    }

    /// A vertical line at `t` ms across the plot (a load's stage boundary), with a label as its tooltip.
    mutating func addVerticalLine(t: Double, cls: String, label: String) {
        vlines.append((t, cls, label))
    }

    private var plotWidth: Double { Self.width - Self.left - Self.right }
    private var plotHeight: Double { height - Self.top - Self.bottom }

    private func x(_ t: Double) -> Double { Self.left + min(max(t, 0), tMax) / tMax * plotWidth }

    private func domain() -> ClosedRange<Double> {
        if !lanes.isEmpty { return 0...Double(lanes.count) }
        if let yRange { return yRange }
        var low = 0.0
        var high = 0.0
        for s in series {
            for (_, v) in s.points {
                low = min(low, v)
                high = max(high, v)
            }
        }
        for h in hlines {
            high = max(high, h.y)
            low = min(low, h.y)
        }
        for m in markers {
            high = max(high, m.y)
            low = min(low, m.y)
        }
        if high - low < 1e-9 { high = low + 1 }
        return low...high
    }

    func render() -> String {
        let d = domain()
        func y(_ v: Double) -> Double {
            Self.top + plotHeight - (v - d.lowerBound) / (d.upperBound - d.lowerBound) * plotHeight
        }
        var svg = "<h2>\(HTMLPage.escape(title))</h2>\n"
        if !series.isEmpty || !hlines.isEmpty {
            svg += "<div class=\"legend\">"
            for (i, s) in series.enumerated() {
                svg += "<span><i class=\"f\(i % 6)\"></i>\(HTMLPage.escape(s.label))</span>"
            }
            for h in hlines { svg += "<span><i class=\"f3\"></i>\(HTMLPage.escape(h.label))</span>" }
            svg += "</div>\n"
        }
        svg += "<svg class=\"plot\" id=\"\(id)\" width=\"\(num(Self.width))\" height=\"\(num(height))\" "
        svg += "viewBox=\"0 0 \(num(Self.width)) \(num(height))\" data-x0=\"\(num(Self.left))\" "
        svg +=
            "data-x1=\"\(num(Self.width - Self.right))\" data-tmax=\"\(num(tMax))\" data-series-count=\"\(series.count)\">\n"
        // Axes and ticks: five on the time axis, low and high on the value axis.
        let bottomY = Self.top + plotHeight
        svg +=
            "<line class=\"axis\" x1=\"\(num(Self.left))\" y1=\"\(num(bottomY))\" x2=\"\(num(Self.width - Self.right))\" y2=\"\(num(bottomY))\"/>\n"
        svg +=
            "<line class=\"axis\" x1=\"\(num(Self.left))\" y1=\"\(num(Self.top))\" x2=\"\(num(Self.left))\" y2=\"\(num(bottomY))\"/>\n"
        for k in 0...4 {
            let t = tMax * Double(k) / 4
            svg +=
                "<text x=\"\(num(x(t)))\" y=\"\(num(height - 6))\" text-anchor=\"middle\">\(num(t / 1000, 2)) s</text>\n"
        }
        if lanes.isEmpty {
            svg +=
                "<text x=\"\(num(Self.left - 4))\" y=\"\(num(bottomY))\" text-anchor=\"end\">\(num(d.lowerBound, 2))</text>\n"
            svg +=
                "<text x=\"\(num(Self.left - 4))\" y=\"\(num(Self.top + 10))\" text-anchor=\"end\">\(num(d.upperBound, 2))</text>\n"
            svg +=
                "<text x=\"\(num(Self.left - 4))\" y=\"\(num(Self.top + plotHeight / 2))\" text-anchor=\"end\">\(HTMLPage.escape(yLabel))</text>\n"
        } else {
            for (i, lane) in lanes.enumerated() {
                let mid = y(Double(lanes.count - i) - 0.5)
                svg +=
                    "<text x=\"\(num(Self.left - 4))\" y=\"\(num(mid + 4))\" text-anchor=\"end\">\(HTMLPage.escape(lane))</text>\n"
                svg +=
                    "<line class=\"grid\" x1=\"\(num(Self.left))\" y1=\"\(num(y(Double(i))))\" x2=\"\(num(Self.width - Self.right))\" y2=\"\(num(y(Double(i))))\"/>\n"
            }
        }
        for h in hlines {
            svg +=
                "<line class=\"\(h.cls)\" x1=\"\(num(Self.left))\" y1=\"\(num(y(h.y)))\" x2=\"\(num(Self.width - Self.right))\" y2=\"\(num(y(h.y)))\"><title>\(HTMLPage.escape(h.label))</title></line>\n"
        }
        for v in vlines {
            svg +=
                "<line class=\"\(v.cls)\" data-t=\"\(num(v.t))\" x1=\"\(num(x(v.t), 2))\" y1=\"\(num(Self.top))\" x2=\"\(num(x(v.t), 2))\" y2=\"\(num(bottomY))\"><title>\(HTMLPage.escape(v.label))</title></line>\n"
        }
        for (i, s) in series.enumerated() {
            let pts = s.points.map { "\(num(x($0.0), 2)),\(num(y($0.1), 2))" }.joined(separator: " ")
            svg += "<polyline class=\"series s\(i % 6)\" data-series=\"\(HTMLPage.escape(s.name))\" "
            svg +=
                "data-points=\"\(s.points.count)\" points=\"\(pts)\"><title>\(HTMLPage.escape(s.label))</title></polyline>\n"
        }
        for s in spans {
            let laneTop = y(Double(lanes.count - s.lane))
            let laneHeight = y(Double(lanes.count - s.lane - 1)) - laneTop
            let x0 = x(s.t0)
            let w = max(1, x(s.t1) - x0)
            svg += "<rect class=\"span \(s.cls)\" data-lane=\"\(HTMLPage.escape(lanes[s.lane]))\" x=\"\(num(x0, 2))\" "
            svg +=
                "y=\"\(num(laneTop + laneHeight * 0.2, 2))\" width=\"\(num(w, 2))\" height=\"\(num(laneHeight * 0.6, 2))\">"
            svg += "<title>\(HTMLPage.escape(s.title))</title></rect>\n"
        }
        for m in markers {
            let cx = x(m.t)
            let cy = lanes.isEmpty ? y(m.y) : y(Double(lanes.count) - m.y - 0.5)
            if m.cls == "failmark" {
                svg +=
                    "<path class=\"failmark\" d=\"M\(num(cx - 4, 2)) \(num(cy - 4, 2))l8 8m0 -8l-8 8\"><title>\(HTMLPage.escape(m.title))</title></path>\n"
            } else {
                svg +=
                    "<circle class=\"\(m.cls)\" cx=\"\(num(cx, 2))\" cy=\"\(num(cy, 2))\" r=\"3\"><title>\(HTMLPage.escape(m.title))</title></circle>\n"
            }
        }
        svg +=
            "<line class=\"cursor\" x1=\"\(num(Self.left))\" y1=\"\(num(Self.top))\" x2=\"\(num(Self.left))\" y2=\"\(num(bottomY))\"/>\n"
        return svg + "</svg>\n"
    }
}
