#!/usr/bin/env python3
"""A small feed API for FeedSim's HTTP tests, in Python's standard library only.

Serves the items of a JSON file (a list of objects with id, published_at (Unix ms), kind, width,
height, title; in any order) in feed order (published_at DESC, id DESC), speaking one convention:

  stripe  GET /items?limit=N[&starting_after=ID|&ending_before=ID]
          -> {"object": "list", "data": [...], "has_more": bool}; items carry "created" (Unix seconds)
  link    GET /items?per_page=N[&after=ID|&before=ID]
          -> a JSON array; RFC 8288 Link header with rel="next" / rel="prev"
  relay   GET /items?first=N[&after=C] | ?last=N&before=C
          -> {"edges": [{"cursor": "c:ID", "node": {...}}], "pageInfo": {...}}
  jsonapi GET /items?page[size]=N[&page[after]=ID|&page[before]=ID]
          -> {"data": [{"type", "id" (a string), "attributes"}], "links": {"next", "prev"}}

Broken modes, to check that a client reports each one:
  --mode ok               answers correctly
  --mode repeat-cursor    from the second page on, hands back the cursor it was sent
  --mode error-every=N    every Nth request is answered 500
  --mode truncate         every page after the first is cut in the middle of its JSON
  --mode slow=MS          every page after the first is answered after MS milliseconds
  --mode swap-order       every page after the first has its first two items swapped (stripe)
  --mode drop-created     every page after the first has no 'created' in its third item (stripe)
  --mode empty-more       every page after the first is empty but says more exist (stripe)
  --mode require-header=NAME:VALUE
                          answers 401 to a request without that header and value

Prints "port N" on stdout once listening on 127.0.0.1 (port 0 picks a free one).
"""
import argparse
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def feed_order(items):
    return sorted(items, key=lambda item: (item["published_at"], item["id"]), reverse=True)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    items = []
    convention = "stripe"
    mode = "ok"
    count = 0
    lock = threading.Lock()

    def log_message(self, format, *args):  # quiet: the tests read stdout
        pass

    def send_json(self, status, value, headers=(), cut=False):
        body = json.dumps(value).encode()
        if cut:
            body = body[: len(body) // 2]
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, text in headers:
            self.send_header(name, text)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with Handler.lock:
            Handler.count += 1
            number = Handler.count
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path != "/items":
            return self.send_json(404, {"error": "not found"})
        mode = Handler.mode
        if mode.startswith("require-header="):
            name, value = mode.split("=", 1)[1].split(":", 1)
            if self.headers.get(name) != value:
                return self.send_json(401, {"error": "unauthorized"})
        if mode.startswith("error-every="):
            every = int(mode.split("=", 1)[1])
            if number % every == 0:
                return self.send_json(500, {"error": "injected"})
        later_page = any(key in query for key in ("starting_after", "ending_before", "after", "before"))
        if mode.startswith("slow=") and later_page:
            time.sleep(int(mode.split("=", 1)[1]) / 1000)
        convention = Handler.convention
        if convention == "relay":
            query = {"limit": query.get("first") or query.get("last") or "10",
                     "after": query.get("after", "").replace("c:", "") or None,
                     "before": query.get("before", "").replace("c:", "") or None}
            query = {key: value for key, value in query.items() if value is not None}
        elif convention == "jsonapi":
            query = {"limit": query.get("page[size]", "10"), "after": query.get("page[after]"),
                     "before": query.get("page[before]")}
            query = {key: value for key, value in query.items() if value is not None}
        size_key = {"stripe": "limit", "link": "per_page"}.get(convention, "limit")
        try:
            limit = int(query.get(size_key, "10"))
        except ValueError:
            return self.send_json(400, {"error": size_key})
        ordered = Handler.items
        ids = [item["id"] for item in ordered]
        after = query.get("starting_after") or query.get("after")
        before = query.get("ending_before") or query.get("before")
        if after is not None:
            start = ids.index(int(after)) + 1
            page = ordered[start:start + limit]
            more_after = start + limit < len(ordered)
            more_before = True
        elif before is not None:
            end = ids.index(int(before))
            start = max(0, end - limit)
            page = ordered[start:end]
            more_after = True
            more_before = start > 0
        else:
            page = ordered[:limit]
            more_after = limit < len(ordered)
            more_before = False
        cut = mode == "truncate" and later_page
        if Handler.convention == "stripe":
            data = [dict(item, created=item["published_at"] // 1000, object=item["kind"]) for item in page]
            has_more = more_before if before is not None else more_after
            if mode == "repeat-cursor" and after is not None and data:
                # Hand back a page whose last item is the one just sent: the next cursor never moves.
                sent = next(item for item in ordered if item["id"] == int(after))
                data = data[:-1] + [dict(sent, created=sent["published_at"] // 1000, object=sent["kind"])]
            if mode == "swap-order" and later_page and len(data) >= 2:
                data[0], data[1] = data[1], data[0]
            if mode == "drop-created" and later_page and len(data) >= 3:
                data[2] = {key: value for key, value in data[2].items() if key != "created"}
            if mode == "empty-more" and later_page:
                data, has_more = [], True
            return self.send_json(200, {"object": "list", "data": data, "has_more": has_more}, cut=cut)
        if Handler.convention == "relay":
            edges = [{"cursor": "c:%d" % item["id"], "node": item} for item in page]
            info = {"hasNextPage": more_after if before is None else True,
                    "hasPreviousPage": more_before if before is not None else after is not None,
                    "startCursor": edges[0]["cursor"] if edges else None,
                    "endCursor": edges[-1]["cursor"] if edges else None}
            return self.send_json(200, {"edges": edges, "pageInfo": info}, cut=cut)
        if Handler.convention == "jsonapi":
            base = "http://%s/items?page%%5Bsize%%5D=%d" % (self.headers.get("Host"), limit)
            data = [{"type": item["kind"], "id": str(item["id"]),
                     "attributes": {key: item[key] for key in ("published_at", "width", "height", "title")}}
                    for item in page]
            links = {"next": "%s&page%%5Bafter%%5D=%d" % (base, page[-1]["id"]) if page and more_after else None,
                     "prev": "%s&page%%5Bbefore%%5D=%d" % (base, page[0]["id"]) if page and more_before else None}
            return self.send_json(200, {"data": data, "links": links}, cut=cut)
        links = []
        base = "http://%s/items?per_page=%d" % (self.headers.get("Host"), limit)
        if page and more_after:
            cursor = after if mode == "repeat-cursor" and after is not None else page[-1]["id"]
            links.append('<%s&after=%s>; rel="next"' % (base, cursor))
        if page and more_before:
            links.append('<%s&before=%s>; rel="prev"' % (base, page[0]["id"]))
        headers = [("Link", ", ".join(links))] if links else []
        return self.send_json(200, page, headers=headers, cut=cut)


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):  # a client that timed out and hung up
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--convention", choices=["stripe", "link", "relay", "jsonapi"], required=True)
    parser.add_argument("--mode", default="ok")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    with open(arguments.data) as file:
        Handler.items = feed_order(json.load(file))
    Handler.convention = arguments.convention
    Handler.mode = arguments.mode
    server = QuietServer(("127.0.0.1", arguments.port), Handler)
    print("port %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
