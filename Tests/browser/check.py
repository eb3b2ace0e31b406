#!/usr/bin/env python3
"""Opens every kind of FeedSim HTML report in headless Chromium and checks what a person would see.

Run by .ci/run after `swift test`: python3 Tests/browser/check.py [path/to/feedsim] [--screenshots DIR]

For each page: no console message at all (errors, warnings, logs: our pages print none); the DOM
after the scripts ran (--dump-dom) has the expected plots, series and point counts for a replay
small enough to work out by hand (Tests/browser/tiny-*.jsonl, the same set-up as
Tests/FeedReportTests/ReportTestSupport.swift, where the counts are derived); `#frame=N` shows
frame N's cells. A page with a deliberate error is opened first, so a check that cannot fail
fails loudly. Screenshots of each kind go to docs/images/.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("  FAIL " + message)
    else:
        print("  ok   " + message)


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("browser check: no chromium on PATH (apt-get install chromium)")


CHROMIUM = browser()
BASE_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
              "--disable-extensions", "--allow-file-access-from-files"]


def open_page(path, fragment=""):
    """The DOM after load and the console lines Chromium logged."""
    url = "file://" + os.path.abspath(path) + fragment
    profile = tempfile.mkdtemp(prefix="feedsim-chromium-")
    try:
        run = subprocess.run(
            [CHROMIUM] + BASE_FLAGS + ["--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                                       "--virtual-time-budget=2000", "--dump-dom", url],
            capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line]
    return run.stdout, console


def screenshot(path, out, fragment="", size="1000,2400"):
    profile = tempfile.mkdtemp(prefix="feedsim-chromium-")
    try:
        subprocess.run(
            [CHROMIUM] + BASE_FLAGS + ["--user-data-dir=" + profile, "--window-size=" + size,
                                       "--virtual-time-budget=2000", "--screenshot=" + out,
                                       "file://" + os.path.abspath(path) + fragment],
            capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    check(os.path.exists(out) and os.path.getsize(out) > 10000, "screenshot " + os.path.relpath(out, ROOT))


class DevTools:
    """A page driven over the Chrome DevTools Protocol (Debian's python3-websocket), for what
    --dump-dom cannot do: key presses and the slider, with every console message and exception seen."""

    def __init__(self):
        import websocket  # python3-websocket; .ci/run installs it
        self.profile = tempfile.mkdtemp(prefix="feedsim-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM] + BASE_FLAGS + ["--user-data-dir=" + self.profile, "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        browser_url = None
        for line in self.process.stderr:
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                browser_url = m.group(1)
                break
        if not browser_url:
            raise RuntimeError("chromium printed no DevTools address")
        self.next_id = 0
        self.messages = []
        browser = websocket.create_connection(browser_url, timeout=30)
        self.ws = browser
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        port = re.search(r":(\d+)/", browser_url).group(1)
        self.ws = websocket.create_connection("ws://127.0.0.1:%s/devtools/page/%s" % (port, target), timeout=30)
        browser.close()
        for domain in ("Runtime", "Log", "Page"):
            self.call(domain + ".enable")

    def call(self, method, params=None):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            self.note(message)

    def note(self, message):
        method = message.get("method")
        if method == "Runtime.consoleAPICalled":
            args = message["params"].get("args", [])
            self.messages.append("console.%s %s" % (message["params"]["type"], [a.get("value") for a in args]))
        elif method == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.messages.append("exception %s %s" % (details.get("text"), details.get("exception", {}).get("description")))
        elif method == "Log.entryAdded":
            entry = message["params"]["entry"]
            self.messages.append("log.%s %s" % (entry.get("level"), entry.get("text")))
        return method

    def open(self, url):
        self.call("Page.navigate", {"url": url})
        while self.note(json.loads(self.ws.recv())) != "Page.loadEventFired":
            pass

    def evaluate(self, expression):
        return self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name, "windowsVirtualKeyCode": code})

    def close(self):
        try:
            self.ws.close()
        finally:
            self.process.terminate()
            self.process.wait(timeout=30)
            shutil.rmtree(self.profile, ignore_errors=True)


def series(dom, plot_id):
    """{series name: point count} of one plot, counting the points themselves."""
    svg = re.search(r'<svg class="plot" id="%s".*?</svg>' % plot_id, dom, re.S)
    if not svg:
        return None
    out = {}
    for name, declared, points in re.findall(
            r'data-series="([^"]+)" data-points="(\d+)" points="([^"]*)"', svg.group(0)):
        out[name] = len(points.split())
        check(out[name] == int(declared), "%s %s: %s points drawn, %s declared" % (plot_id, name, out[name], declared))
    return out


def scrubber_cells(dom):
    g = re.search(r'<g id="scrubber-cells" data-frame="(\d+)"[^>]*>(.*?)</g>', dom, re.S)
    if not g:
        return None, []
    cells = re.findall(r'<rect class="([^"]+)" data-index="(\d+)" data-state="(\w+)" data-recycled="(\d)"', g.group(2))
    return int(g.group(1)), [(int(i), state, recycled == "1") for _, i, state, recycled in cells]


def feedsim(binary, *args, cwd=None):
    run = subprocess.run([binary] + list(args), capture_output=True, text=True, cwd=cwd)
    if run.returncode not in (0, 2):
        sys.exit("browser check: feedsim %s failed (%d): %s" % (" ".join(args), run.returncode, run.stderr))
    return run.stdout


def main():
    args = sys.argv[1:]
    images = os.path.join(ROOT, "docs", "images")
    if "--screenshots" in args:
        i = args.index("--screenshots")
        images = args[i + 1]
        del args[i:i + 2]
    binary = os.path.abspath(args[0]) if args else os.path.join(ROOT, ".build", "debug", "feedsim")
    os.makedirs(images, exist_ok=True)
    work = tempfile.mkdtemp(prefix="feedsim-browser-")
    try:
        run_checks(binary, work, images)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("browser check: %d failure(s)" % len(failures))
        sys.exit(1)
    print("browser check: all passed")


def run_checks(binary, work, images):
    print("the check can fail: a page with a deliberate error")
    bad = os.path.join(work, "bad.html")
    with open(bad, "w") as f:
        f.write('<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>')
    _, console = open_page(bad)
    check(any("undefinedFunction" in line for line in console), "a script error is seen on the console")
    tools = DevTools()
    try:
        tools.open("file://" + bad)
        tools.evaluate("1")
        check(any("undefinedFunction" in m for m in tools.messages), "and over DevTools (%s)" % tools.messages)
    finally:
        tools.close()

    db = os.path.join(work, "tiny.sqlite")
    trace = os.path.join(HERE, "tiny-trace.jsonl")
    feedsim(binary, "import", "--db", db, "--feed", "home", os.path.join(HERE, "tiny-items.jsonl"))
    # The costs the hand computation used (ReportTestSupport.swift), not the calibrated defaults.
    tiny = ["--db", db, "--trace", trace, "--kind", "grid", "--columns", "3", "--latency", "fixed:200",
            "--initial-pages", "1", "--ranges", "uikit", "--costs", "base=2,layout=3,create=6,reuse=1.5,bind=1"]
    a_html, a_json = os.path.join(work, "replay.html"), os.path.join(work, "a.json")
    feedsim(binary, "replay", *tiny, "--page-size", "30", "--html", a_html, "--report", a_json)
    b_json = os.path.join(work, "b.json")
    feedsim(binary, "replay", *tiny, "--page-size", "60", "--report", b_json)

    print("replay report (" + trace + ")")
    dom, console = open_page(a_html, "#frame=60")
    check(console == [], "no console messages %s" % console)
    # Hand-computed (ReportTestSupport.swift): 91 frames; items visible from frame 12 (Init lands at 200 ms).
    expected = {
        "plot-offset": {"offset": 91},
        "plot-indices": {"visible-first": 79, "visible-last": 79, "loaded-first": 79, "loaded-last": 79},
        "plot-blank": {"row-missing": 91, "no-content": 91},
        "plot-cost": {"cost": 91},
        "plot-cells": {"live": 91, "created": 91, "reused": 91},
    }
    for plot, want in expected.items():
        check(series(dom, plot) == want, "%s has series %s" % (plot, want))
    loads = re.search(r'<svg class="plot" id="plot-loads".*?</svg>', dom, re.S).group(0)
    lanes = re.findall(r'data-lane="(\w+)"', loads)
    # Init 0→200; More 200→400, 500→700, 1000→1200; six row batches.
    check({lane: lanes.count(lane) for lane in set(lanes)} == {"Init": 1, "More": 3, "Rows": 6},
          "page loads: 1 Init, 3 More, 6 row batches (%s)" % sorted(lanes))
    check(len(re.findall(r'<circle class="hitch"', dom)) == 2, "two hitches marked (the jumps at 500 and 1000 ms)")
    frame, cells = scrubber_cells(dom)
    check(frame == 60, "#frame=60 selects frame 60 (%s)" % frame)
    check([c[0] for c in cells] == list(range(72, 90)), "frame 60 shows the cells of items 72…89 (rows 24–29)")
    check(all(state == "placeholder" and recycled for _, state, recycled in cells),
          "frame 60's cells are recycled placeholders (their rows arrive at 1200 ms)")
    check('id="frame-slider" min="0" max="90" value="0"' in dom or re.search(r'id="frame-slider"[^>]*max="90"', dom),
          "the slider spans frames 0…90")
    cursor = re.search(r'<svg class="plot" id="plot-offset".*?<line class="cursor" x1="([\d.]+)"', dom, re.S)
    # x = 64 + 1000 / 1500 × (960 − 64 − 16) = 650.67
    check(cursor and abs(float(cursor.group(1)) - 650.67) < 0.01, "the plots' cursor stands at 1000 ms (x 650.67)")
    dom72, console = open_page(a_html, "#frame=72")
    frame, cells = scrubber_cells(dom72)
    # 1200 ms: More has landed (100 items); rows 24–32 live (0.5 screen ahead); rows 24–29 show their rows.
    check(frame == 72 and [c[0] for c in cells] == list(range(72, 99)), "#frame=72 shows items 72…98")
    check(sum(1 for c in cells if c[1] == "shown") == 18, "frame 72: 18 cells show their row")
    print("replay report driven over DevTools: arrow keys and the slider")
    tools = DevTools()
    try:
        tools.open("file://" + os.path.abspath(a_html) + "#frame=60")
        state = "document.getElementById('scrubber-cells').dataset.frame + '|' + location.hash"
        check(tools.evaluate(state) == "60|#frame=60", "opened at frame 60")
        tools.key("ArrowRight", 39)
        check(tools.evaluate(state) == "61|#frame=61", "→ selects frame 61 and the address follows")
        tools.key("ArrowLeft", 37)
        tools.key("ArrowLeft", 37)
        check(tools.evaluate(state) == "59|#frame=59", "← ← selects frame 59")
        tools.evaluate("var s=document.getElementById('frame-slider');s.value='12';s.dispatchEvent(new Event('input'))")
        check(tools.evaluate(state) == "12|#frame=12", "the slider selects frame 12")
        # Frame 12 (200 ms): Init has landed; the 27 cells of rows 0–8, new and without rows.
        check(tools.evaluate("document.querySelectorAll('#scrubber-cells rect.cell.placeholder:not(.recycled)').length") == 27,
              "frame 12 shows 27 new placeholders")
        tools.key("ArrowLeft", 37)
        for _ in range(20):
            tools.key("ArrowLeft", 37)
        check(tools.evaluate(state) == "0|#frame=0", "← stops at frame 0")
        check(tools.messages == [], "no console message or exception while driven %s" % tools.messages)
    finally:
        tools.close()
    screenshot(a_html, os.path.join(images, "replay-report.png"), "#frame=60", "1000,3200")

    print("compare report")
    c_html = os.path.join(work, "compare.html")
    feedsim(binary, "compare", a_json, b_json, "--html", c_html)
    dom, console = open_page(c_html)
    check(console == [], "no console messages %s" % console)
    differs = re.findall(r'<tr class="differs"><td>([^<]+)</td>', dom)
    check(differs == ["page_size", "prefetch"], "page size and prefetch differ, listed first (%s)" % differs)
    with open(a_json) as f:
        report = json.load(f)
    figures = count_figures(report)
    rows = re.search(r'<table id="figures">.*?</table>', dom, re.S).group(0).count("<tr")
    check(rows == figures + 1, "every figure listed (%d rows for %d figures)" % (rows - 1, figures))
    screenshot(c_html, os.path.join(images, "compare-report.png"), "", "1000,1400")

    print("sweep report")
    s_html, s_csv = os.path.join(work, "sweep.html"), os.path.join(work, "sweep.csv")
    feedsim(binary, "sweep", *tiny, "--vary", "page-size=10,20,30,60", "--vary", "latency=fixed:100|fixed:200|fixed:400",
            "--jobs", "2", "--cost", "rows", "--harm", "blank-p95", "--html", s_html, "--csv", s_csv)
    dom, console = open_page(s_html)
    check(console == [], "no console messages %s" % console)
    with open(s_csv) as f:
        rows = [line.split(",") for line in f.read().splitlines()]
    header, rows = rows[0], rows[1:]
    # Harm blank-p95: the 1.5 s tiny trace scrolls too little for a hitch ratio (its column is empty).
    points = [(float(r[header.index("rows_fetched")]), float(r[header.index("blank_p95")])) for r in rows]
    # An independent oracle: brute-force dominance over the CSV's own figures.
    frontier = [not any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in points) for p in points]
    check([r[header.index("frontier")] == "1" for r in rows] == frontier, "the CSV's frontier is the brute-force one")
    circles = re.findall(r'<circle class="(point[^"]*)"', dom)
    check(len(circles) == 12, "12 points in the scatter (4 page sizes × 3 latencies): %d" % len(circles))
    check(sum("frontier" in c for c in circles) == sum(frontier), "frontier points drawn red")
    # Current settings: --latency fixed:200 with the default page size 20 is one of the combinations.
    check(sum("current" in c for c in circles) == 1, "the current settings (page size 20, 200 ms) ringed")

    print("sweep of the README's picture")
    # A frontier worth a picture: a minute of flinging (long enough that the wait for the first page is
    # under 5 % of the frames, so blank p95 measures scrolling) on a seeded feed, page size against More
    # trigger distance; run in the work directory so the trace's name is short.
    feedsim(binary, "seed", "--db", "feed.sqlite", "--preset", "photos", "--count", "5000", cwd=work)
    feedsim(binary, "trace", "synth", "--model", "flinger", "--duration", "60", "--seed", "3", "-o", "flinger.jsonl",
            cwd=work)
    r_html, r_csv = os.path.join(work, "readme-sweep.html"), os.path.join(work, "readme-sweep.csv")
    feedsim(binary, "sweep", "--db", "feed.sqlite", "--trace", "flinger.jsonl", "--kind", "grid", "--columns", "3",
            "--latency", "lognormal:300,0.5", "--vary", "page-size=10,20,50", "--vary", "prefetch=items:5,items:20,screens:2",
            "--jobs", "2", "--html", r_html, "--csv", r_csv, cwd=work)
    dom, console = open_page(r_html)
    check(console == [], "no console messages %s" % console)
    with open(r_csv) as f:
        rows = [line.split(",") for line in f.read().splitlines()]
    header, rows = rows[0], rows[1:]
    points = [(float(r[header.index("requests")]), float(r[header.index("blank_p95")])) for r in rows]
    frontier = [not any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in points) for p in points]
    check([r[header.index("frontier")] == "1" for r in rows] == frontier, "the CSV's frontier is the brute-force one")
    check(len(set(p[1] for p in points)) > 3 and 1 < sum(frontier) < len(points), "a frontier with a trade-off")
    circles = re.findall(r'<circle class="(point[^"]*)"', dom)
    check(len(circles) == 9 and sum("frontier" in c for c in circles) == sum(frontier), "9 points, frontier red")
    screenshot(r_html, os.path.join(images, "sweep-frontier.png"), "", "1000,900")

    print("demo --html")
    demo = os.path.join(work, "demo")
    feedsim(binary, "demo", "--html", demo)
    index, console = open_page(os.path.join(demo, "index.html"))
    check(console == [], "index: no console messages %s" % console)
    pages = re.findall(r'<a href="([^"]+)"', index)
    check(len(pages) == 3, "the index links the demo's three replays (%s)" % pages)
    for page in pages:
        dom, console = open_page(os.path.join(demo, page), "#frame=150")
        check(console == [], "%s: no console messages %s" % (page, console))
        frame, cells = scrubber_cells(dom)
        check(frame == 150 and len(cells) > 0, "%s: #frame=150 draws frame 150's %d cells" % (page, len(cells)))
        check(len(re.findall(r'<svg class="plot"', dom)) == 6, "%s: six plots" % page)
    screenshot(os.path.join(demo, pages[1]), os.path.join(images, "demo-report.png"), "#frame=150", "1000,2500")

    load_html = os.path.join(work, "load.html")
    run = subprocess.run([binary, "load", "--help"], capture_output=True, text=True)
    if "--html" in run.stdout:
        print("load report")
        feedsim(binary, "load", "--db", db, "--sessions", "2", "--duration", "3", "--time-scale", "10",
                "--trace", trace, "--html", load_html, "--report", os.path.join(work, "load.json"))
        dom, console = open_page(load_html)
        check(console == [], "no console messages %s" % console)
        with open(os.path.join(work, "load.json")) as f:
            load = json.load(f)
        seconds = len(load.get("timeline", []))
        check(seconds >= 1, "the load report has a per-second series (%d seconds)" % seconds)
        for kind in sorted(load["latency"]):
            if kind == "insert":
                continue
            got = series(dom, "plot-latency-" + kind)
            want = sum(1 for s in load["timeline"] if s["latency"].get(kind))
            check(got == {"p50": want, "p99": want}, "latency of %s: p50 and p99 over %d seconds (%s)" % (kind, want, got))
        screenshot(load_html, os.path.join(images, "load-report.png"), "", "1000,1600")
        print("load report with stages and a threshold")
        staged_html = os.path.join(work, "load-stages.html")
        feedsim(binary, "load", "--db", db, "--stages", "1s:2,1s:2", "--time-scale", "10", "--trace", trace,
                "--threshold", "consistency==0", "--html", staged_html)
        dom, console = open_page(staged_html)
        check(console == [], "no console messages %s" % console)
        plots = re.findall(r'<svg class="plot" id="([\w-]+)".*?</svg>', dom, re.S)
        boundaries = [len(re.findall(r'<line class="stage-boundary"', svg))
                      for svg in re.findall(r'<svg class="plot".*?</svg>', dom, re.S)]
        check(len(plots) > 0 and boundaries == [1] * len(plots),
              "the stage boundary (1 s) is drawn on each of the %d plots (%s)" % (len(plots), boundaries))
        stages = re.search(r'<table id="stages">.*?</table>', dom, re.S)
        rows = re.findall(r'<tr><td>(\d: [^<]*)</td>', stages.group(0)) if stages else []
        check(rows == ["1: 0→2", "2: 2→2"], "the per-stage table has both stages (%s)" % rows)
        thresholds = re.search(r'<table id="thresholds">.*?</table>', dom, re.S)
        check(thresholds is not None and "✓</td><td>consistency==0" in thresholds.group(0),
              "the thresholds table marks consistency==0 as held")
    else:
        check(False, "feedsim load has --html")


def count_figures(report):
    """Numbers, booleans and arrays (as counts) outside `options` and `version`: what the tables list.
    A point or a size (`content_offset: [x, y]`, `content_size: [width, height]`) is its two coordinates."""
    count = 0

    def walk(value, path):
        nonlocal count
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + [k])
        elif isinstance(value, (int, float, bool, list)) and path and path[0] != "options" and path != ["version"]:
            pair = (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)
                    and (path[-1].endswith("_offset") or path[-1].endswith("_size")))
            count += 2 if pair else 1

    walk(report, [])
    return count


if __name__ == "__main__":
    main()
