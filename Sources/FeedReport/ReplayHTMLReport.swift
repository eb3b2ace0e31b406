import FeedEngine
import FeedLayout
import FeedReplay
import Foundation

/// `feedsim replay --html`: one self-contained HTML page for one replay — the summary table, plots
/// on one shared time axis, and a frame scrubber that draws the layout with the viewport, the
/// prefetch and preload rects and each live cell's state.
///
/// ```
///  summary table   (every figure of the JSON report, with units)
///  plots           offset · indices (visible band, loaded window) · page loads and row batches
///                  · blank by cause · frame cost vs budget (hitches) · cells
///  scrubber        slider, ← →, #frame=N  →  layout: viewport, prefetch, preload, cells
/// ```
/// Same report and recording ⇒ the same bytes (no time stamp, no hash order).
public enum ReplayHTMLReport {
    /// - Parameters:
    ///   - report: the replay's report.
    ///   - recording: the per-frame record of the same replay.
    ///   - title: the page's heading.
    /// - Returns: the page as UTF-8 text.
    /// - Throws: when the report cannot be encoded as JSON (it always can).
    public static func html(report: ReplayReport, recording: ReplayRecording, title: String) throws -> String {
        let metrics = try ReportMetrics(json: try report.jsonData(), file: "report")
        var body = "<p class=\"note\">Trace <code>\(HTMLPage.escape(report.source))</code>; "
        body +=
            "\(report.frames) frames at \(num(report.refreshRateHz)) Hz. Times are virtual (ms from the start).</p>\n"
        body += "<h2>Summary</h2>\n<div id=\"summary-wrap\">" + summaryTable(metrics) + "</div>\n"
        body += "<details><summary>Options</summary>\n"
        body += HTMLPage.table(
            header: ["option", "value"], rows: metrics.settings.sorted { $0.key < $1.key }.map { [$0.key, $0.value] },
            id: "options")
        body += "</details>\n"
        body += plots(report: report, recording: recording).map { $0.render() }.joined()
        body += scrubberMarkup(recording)
        return HTMLPage.document(title: title, body: body, script: scrubberScript)
    }

    /// The figures of the JSON report with their units (a replay's `version` left out).
    static func summaryTable(_ metrics: ReportMetrics) -> String {
        var rows = metrics.figures.map { figure -> [String] in
            let unit = ReportMetrics.unit(of: figure.key)
            return [figure.key, ReportMetrics.format(figure.value, unit: unit)]
        }
        for key in metrics.texts.keys.sorted() where !key.hasPrefix("options.") && !key.hasPrefix("settings.") {
            rows.append([key, metrics.texts[key]!])
        }
        return HTMLPage.table(header: ["figure", "value"], rows: rows, id: "summary")
    }

    /// Lanes of the page-load plot, top to bottom.
    static let lanes = ["Init", "Refresh", "More", "Prepend", "Rows"]

    static func lane(of kind: FeedController.LoadKind) -> Int {
        switch kind {
        case .initial: 0
        case .refresh, .gapFill: 1
        case .more: 2
        case .prepend: 3
        }
    }

    /// The six plots, on the time axis 0…duration.
    static func plots(report: ReplayReport, recording: ReplayRecording) -> [TimePlot] {
        let frames = recording.frames
        let tMax = max(report.durationMs, frames.last?.t ?? 0)
        var offset = TimePlot(id: "plot-offset", title: "Content offset (pt)", tMax: tMax, yLabel: "pt")
        offset.addSeries("offset", label: "content offset", points: frames.map { ($0.t, $0.offset) })

        var indices = TimePlot(
            id: "plot-indices", title: "Visible index band and loaded window (item index)", tMax: tMax, yLabel: "index")
        let visible = frames.filter { $0.visibleRange != nil }
        indices.addSeries(
            "visible-first", label: "first visible", points: visible.map { ($0.t, Double($0.visibleRange!.lowerBound)) }
        )
        indices.addSeries(
            "visible-last", label: "last visible", points: visible.map { ($0.t, Double($0.visibleRange!.upperBound)) })
        let loaded = frames.filter { $0.loadedItems > 0 }
        indices.addSeries("loaded-first", label: "first loaded", points: loaded.map { ($0.t, 0) })
        indices.addSeries(
            "loaded-last", label: "last loaded", points: loaded.map { ($0.t, Double($0.loadedItems - 1)) })

        var loads = TimePlot(
            id: "plot-loads", title: "Page loads per direction and row batches (request → arrival)", tMax: tMax,
            yLabel: "")
        loads.lanes = lanes
        loads.height = 130
        for span in recording.pages {
            let lane = lane(of: span.kind)
            let end = span.answered ?? tMax
            let cls =
                span.failure != nil ? "failed" : (span.attempt > 1 ? "retry" : (span.answered == nil ? "open" : ""))
            var title = "\(span.kind.rawValue) #\(span.id) attempt \(span.attempt): \(num(span.issued)) → "
            title += span.answered.map { num($0) + " ms" } ?? "not answered"
            if let failure = span.failure { title += " (failed: \(failure))" }
            loads.addSpan(lane: lane, from: span.issued, to: end, cls: cls, title: title)
            if span.failure != nil {
                loads.addMarker(t: end, y: Double(lane), cls: "failmark", title: title)
            }
        }
        for span in recording.rows {
            let title =
                "rows #\(span.fetchID) (\(span.count)): \(num(span.issued)) → "
                + (span.answered.map { num($0) + " ms" } ?? "not answered")
            loads.addSpan(
                lane: lanes.count - 1, from: span.issued, to: span.answered ?? tMax, cls: "rows", title: title)
        }

        var blank = TimePlot(
            id: "plot-blank", title: "Blank fraction of the viewport by cause", tMax: tMax, yLabel: "share",
            yRange: 0...1)
        blank.addSeries("row-missing", label: "rows missing", points: frames.map { ($0.t, $0.rowMissingFraction) })
        blank.addSeries("no-content", label: "no content", points: frames.map { ($0.t, $0.noContentFraction) })

        var cost = TimePlot(
            id: "plot-cost", title: "Frame cost against the frame budget (ms); hitches marked", tMax: tMax, yLabel: "ms"
        )
        cost.addSeries("cost", label: "frame cost", points: frames.map { ($0.t, $0.cost) })
        cost.addHorizontalLine(y: recording.budget, cls: "budget", label: "budget \(num(recording.budget, 2)) ms")
        for frame in frames where frame.hitch {
            cost.addMarker(
                t: frame.t, y: frame.cost, cls: "hitch", title: "hitch: frame \(frame.index), \(num(frame.cost, 2)) ms")
        }

        var cells = TimePlot(
            id: "plot-cells", title: "Cells: live, created and reused per frame", tMax: tMax, yLabel: "cells")
        cells.addSeries("live", label: "live", points: frames.map { ($0.t, Double($0.liveCells)) })
        cells.addSeries("created", label: "created", points: frames.map { ($0.t, Double($0.created)) })
        cells.addSeries("reused", label: "reused", points: frames.map { ($0.t, Double($0.reused)) })
        return [offset, indices, loads, blank, cost, cells]
    }

    /// The scrubber's controls, its drawing area and the frames' data (compact arrays).
    static func scrubberMarkup(_ recording: ReplayRecording) -> String {
        var html = "<h2>Frame scrubber</h2>\n"
        html += "<p class=\"note\">Slider or ← → keys; <code>#frame=N</code> in the address selects frame N. "
        html += "Cells: <span style=\"color:#2ca02c\">row shown</span>, grey placeholder (row not loaded), "
        html +=
            "dashed brown border: recycled from the reuse pool. Blue: viewport; orange: prefetch range; purple: preload range.</p>\n"
        html +=
            "<div id=\"scrubber-controls\"><input type=\"range\" id=\"frame-slider\" min=\"0\" max=\"\(max(0, recording.frames.count - 1))\" value=\"0\">"
        html += "<span id=\"frame-info\"></span></div>\n"
        html += "<svg id=\"scrubber-svg\" width=\"600\" height=\"600\" viewBox=\"0 0 600 600\"></svg>\n"
        // frames: [t, viewport x,y,w,h, prefetch x,y,w,h, preload x,y,w,h, snapshot, row-missing, no-content, cost, hitch]
        var json = "{\"frames\":["
        json += recording.frames.map { f in
            let values = [f.t] + rect(f.viewport) + rect(f.prefetchRect) + rect(f.preloadRect)
            let parts =
                values.map { num($0, 2) } + [
                    String(f.snapshotIndex), num(f.rowMissingFraction, 4), num(f.noContentFraction, 4), num(f.cost, 3),
                    f.hitch ? "1" : "0",
                ]
            return "[" + parts.joined(separator: ",") + "]"
        }.joined(separator: ",")
        // snapshots: per snapshot, flat [index, x, y, w, h, shown 0/1, recycled 0/1, ...]
        json += "],\"snapshots\":["
        json += recording.snapshots.map { cells in
            "["
                + cells.map { c in
                    ([String(c.index)] + rect(c.frame).map { num($0, 2) } + [
                        c.state == .shown ? "1" : "0", c.recycled ? "1" : "0",
                    ]).joined(separator: ",")
                }.joined(separator: ",") + "]"
        }.joined(separator: ",")
        json += "]}"
        html += "<script type=\"application/json\" id=\"replay-data\">\(json)</script>\n"
        return html
    }

    static func rect(_ r: Rect) -> [Double] { [r.minX, r.minY, r.width, r.height] }

    /// Draws the selected frame, keeps the slider, the hash and the plots' cursor lines in step.
    static let scrubberScript = """
        (function(){
        "use strict";
        var D=JSON.parse(document.getElementById("replay-data").textContent);
        var svg=document.getElementById("scrubber-svg"),slider=document.getElementById("frame-slider"),
            info=document.getElementById("frame-info"),NS="http://www.w3.org/2000/svg",cur=-1;
        function el(name,attrs){var e=document.createElementNS(NS,name);for(var k in attrs)e.setAttribute(k,attrs[k]);return e;}
        function draw(n){
          var f=D.frames[n];while(svg.firstChild)svg.removeChild(svg.firstChild);
          var cells=D.snapshots[f[13]],x0=Math.min(f[1],f[5],f[9]),y0=Math.min(f[2],f[6],f[10]),
              x1=Math.max(f[1]+f[3],f[5]+f[7],f[9]+f[11]),y1=Math.max(f[2]+f[4],f[6]+f[8],f[10]+f[12]);
          var s=Math.min(580/Math.max(x1-x0,1),580/Math.max(y1-y0,1));
          function r(x,y,w,h,a){a.x=((x-x0)*s+10).toFixed(2);a.y=((y-y0)*s+10).toFixed(2);
            a.width=Math.max(w*s,0).toFixed(2);a.height=Math.max(h*s,0).toFixed(2);return el("rect",a);}
          var g=el("g",{"id":"scrubber-cells","data-frame":String(n),"data-count":String(cells.length/7)});
          for(var i=0;i<cells.length;i+=7){
            var cls="cell "+(cells[i+5]?"shown":"placeholder")+(cells[i+6]?" recycled":"");
            var c=r(cells[i+1],cells[i+2],cells[i+3],cells[i+4],{"class":cls,"data-index":String(cells[i]),
              "data-state":cells[i+5]?"shown":"placeholder","data-recycled":cells[i+6]?"1":"0"});
            var t=el("title",{});t.textContent="item "+cells[i];c.appendChild(t);g.appendChild(c);
          }
          svg.appendChild(g);
          svg.appendChild(r(f[9],f[10],f[11],f[12],{"class":"preload"}));
          svg.appendChild(r(f[5],f[6],f[7],f[8],{"class":"prefetch"}));
          svg.appendChild(r(f[1],f[2],f[3],f[4],{"class":"viewport","id":"scrubber-viewport"}));
          info.textContent="frame "+n+" at "+f[0]+" ms: "+(cells.length/7)+" live cells, blank "+
            (Math.min(1,f[14]+f[15])*100).toFixed(1)+" %, cost "+f[16]+" ms"+(f[17]?" (hitch)":"");
          var plots=document.querySelectorAll("svg.plot");
          for(var p=0;p<plots.length;p++){var P=plots[p],a=+P.dataset.x0,b=+P.dataset.x1,tm=+P.dataset.tmax;
            var x=(a+Math.min(f[0],tm)/tm*(b-a)).toFixed(2),l=P.querySelector(".cursor");l.setAttribute("x1",x);l.setAttribute("x2",x);}
        }
        function select(n,hash){
          if(!D.frames.length)return;n=Math.max(0,Math.min(D.frames.length-1,n|0));
          cur=n;slider.value=String(n);draw(n);
          if(hash&&history.replaceState)history.replaceState(null,"","#frame="+n);
        }
        function fromHash(){var m=/frame=(\\d+)/.exec(location.hash);return m?parseInt(m[1],10):0;}
        slider.addEventListener("input",function(){select(+slider.value,true);});
        document.addEventListener("keydown",function(e){
          if(e.key==="ArrowRight"){select(cur+1,true);e.preventDefault();}
          else if(e.key==="ArrowLeft"){select(cur-1,true);e.preventDefault();}});
        window.addEventListener("hashchange",function(){select(fromHash(),false);});
        select(fromHash(),false);
        })();
        """
}
