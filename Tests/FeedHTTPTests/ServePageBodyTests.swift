import FeedModel
import Foundation
import Testing

@testable import FeedHTTP

/// The typed decode of serve's shape (``ServePageBody``) against the general reading (a
/// `JSONSerialization` tree walked by the convention's JSON Pointers) as the oracle: random page
/// bodies, many of serve's shape and many broken in the ways a real API breaks (fields missing,
/// `null`, of another JSON type, ids as text, fractional times, items out of order or repeated,
/// cursors handed back, flags missing), read by two backends differing only in whether they try
/// serve's shape first. Pages, cursors, rows and every audit record must be equal.
@Suite struct ServePageBodyTests {
    /// One random body, as JSON text, and whether it was built with serve's exact types.
    struct Body {
        var text: String
        var wellFormed: Bool
    }

    static func randomBody(_ random: inout SplitMix64, sent: String) -> Body {
        var wellFormed = true
        func broken(_ oneIn: UInt64) -> Bool {
            let hit = random.next() % oneIn == 0
            if hit { wellFormed = false }
            return hit
        }
        func quoted(_ text: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [text], options: [])
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        let texts = ["", "Café ☕️ \"quoted\"", "line\nbreak \\ slash /", "\u{1F600} emoji", "plain", "tab\tand \\u escapes"]
        var members: [String] = []
        let count = Int(random.next() % 6)
        var publishedAt: Int64 = 1_700_000_000_000 - Int64(random.next() % 1000) * 1000
        var id: Int64 = 50_000 - Int64(random.next() % 100)
        for _ in 0..<count {
            var fields: [String] = []
            // Mostly descending, sometimes repeated or out of order.
            if random.next() % 9 != 0 { publishedAt -= Int64(random.next() % 3) * 1000 } else { publishedAt += 5000 }
            if random.next() % 11 != 0 { id -= 1 + Int64(random.next() % 3) }
            switch random.next() % 28 {
            case 0: wellFormed = false
            case 1: fields.append(#""id":null"#); wellFormed = false
            case 2: fields.append(#""id":"\#(id)""#); wellFormed = false
            case 3: fields.append(#""id":"post-\#(id)""#); wellFormed = false
            case 4: fields.append(#""id":true"#); wellFormed = false
            case 5: fields.append(#""id":\#(id).5"#)
            default: fields.append(#""id":\#(id)"#)
            }
            switch random.next() % 24 {
            case 0: wellFormed = false
            case 1: fields.append(#""published_at":"\#(publishedAt)""#); wellFormed = false
            case 2: fields.append(#""published_at":\#(publishedAt).25"#)
            case 3: fields.append(#""published_at":\#(publishedAt).0"#)
            default: fields.append(#""published_at":\#(publishedAt)"#)
            }
            switch random.next() % 24 {
            case 0: wellFormed = false
            case 1: fields.append(#""kind":"""#)
            case 2: fields.append(#""kind":7"#); wellFormed = false
            case 3: fields.append(#""kind":null"#); wellFormed = false
            default: fields.append(#""kind":"\#(["photo", "text", "video"][Int(random.next() % 3)])""#)
            }
            for name in ["width", "height"] {
                switch random.next() % 28 {
                case 0: wellFormed = false
                case 1: fields.append(#""\#(name)":"390""#); wellFormed = false
                case 2: fields.append(#""\#(name)":false"#); wellFormed = false
                case 3: fields.append(#""\#(name)":292.5"#)
                default: fields.append(#""\#(name)":\#(100 + random.next() % 900)"#)
                }
            }
            for name in ["title", "author"] {
                switch random.next() % 24 {
                case 0: wellFormed = false
                case 1: fields.append(#""\#(name)":42"#); wellFormed = false
                case 2: fields.append(#""\#(name)":null"#); wellFormed = false
                default: fields.append(#""\#(name)":\#(quoted(texts[Int(random.next() % UInt64(texts.count))]))"#)
                }
            }
            switch random.next() % 24 {
            case 0: wellFormed = false
            case 1: fields.append(#""payload":{"b":[1,2],"a":"x"}"#); wellFormed = false
            case 2: fields.append(#""payload":3"#); wellFormed = false
            default: fields.append(#""payload":\#(quoted(#"{"likes":\#(random.next() % 100)}"#))"#)
            }
            fields.append(#""image_url":"/v1/images/\#(id).svg""#)
            if random.next() % 5 == 0 { fields.append(#""extra":{"nested":[null,true,{"x":1}]}"#) }
            fields.shuffle(using: &random)
            members.append(broken(40) ? "[1,2]" : "{" + fields.joined(separator: ",") + "}")
        }
        var top = [#""items":[\#(members.joined(separator: ","))]"#]
        let last = "\(publishedAt):\(id)"
        switch random.next() % 10 {
        case 0: top.append(#""next_cursor":null"#)
        case 1: top.append(#""next_cursor":\#(quoted(sent))"#)
        case 2: top.append(#""next_cursor":12345"#); wellFormed = false
        case 3: top.append(#""next_cursor":"""#)
        case 4: break
        default: top.append(#""next_cursor":\#(quoted(last))"#)
        }
        top.append(random.next() % 6 == 0 ? #""prev_cursor":null"# : #""prev_cursor":"1700000000000:50001""#)
        for name in ["has_more_after", "has_more_before"] {
            switch random.next() % 12 {
            case 0: wellFormed = false
            case 1: top.append(#""\#(name)":"yes""#); wellFormed = false
            default: top.append(#""\#(name)":\#(random.next() % 3 != 0)"#)
            }
        }
        if broken(30) { top.removeFirst() }
        top.shuffle(using: &random)
        var text = "{" + top.joined(separator: ",") + "}"
        if broken(40) { text = String(text.dropLast(3)) }
        return Body(text: text, wellFormed: wellFormed)
    }

    static func backend(_ convention: Convention, serveShape: Bool) throws -> HTTPFeedBackend {
        let backend = try HTTPFeedBackend(source: "http://127.0.0.1:9", convention: convention, client: try HTTPClient())
        #expect(backend.servePages == convention.pagesHaveServeShape)
        backend.servePages = serveShape
        backend.serveRows = serveShape
        return backend
    }

    @Test func randomPagesReadAsServesShapeEqualThePagesReadThroughPointers() throws {
        var random = SplitMix64(seed: 15)
        var convention = Convention.feedsim
        convention.rows = nil  // rows from the pages' fields, so they are compared too
        let typed = try Self.backend(convention, serveShape: true)
        let tree = try Self.backend(convention, serveShape: false)
        var wellFormedBodies = 0
        for round in 0..<600 {
            let sent = "1700000000000:\(50_000 + round)"
            let body = Self.randomBody(&random, sent: sent)
            if body.wellFormed { wellFormedBodies += 1 }
            let exchange = HTTPExchange(
                url: "http://127.0.0.1:9/v1/feeds/home/items?round=\(round)", status: 200, headers: [:],
                body: Array(body.text.utf8), elapsedMs: 1, httpVersion: "1.1")
            let after = Cursor(publishedAt: 1_700_000_010_000, id: 60_000)
            let before = Cursor(publishedAt: 1_600_000_000_000, id: 1)
            let (request, bound): (HTTPFeedBackend.PageRequest, Cursor?) =
                round % 3 == 0 ? (.newest, nil) : round % 3 == 1 ? (.after(after, sent), after) : (.before(before, sent), before)
            let typedReadsBefore = typed.serveShapeReads
            let fast = Result { try typed.readPage(exchange, request: request, sent: sent, bound: bound) }
            let oracle = Result { try tree.readPage(exchange, request: request, sent: sent, bound: bound) }
            // Every body built with serve's exact fields and types is read the typed way; the
            // others fall back to the tree (a fractional time, an empty kind, items out of order
            // or repeated and cursors handed back are serve's types, and are checked after either).
            if body.wellFormed { #expect(typed.serveShapeReads == typedReadsBefore + 1, "\(body.text)") }
            switch (fast, oracle) {
            case (.success(let a), .success(let b)):
                #expect(a.page == b.page, "\(body.text)")
                #expect(a.nextToken == b.nextToken && a.prevToken == b.prevToken, "\(body.text)")
                #expect(a.unchangedCursor == b.unchangedCursor && a.url == b.url)
                let ids = b.page.items.map(\.id)
                #expect(try typed.rows(ids: ids) == tree.rows(ids: ids), "\(body.text)")
            case (.failure(let a), .failure(let b)):
                #expect(String(describing: a) == String(describing: b))
            default:
                Issue.record("one way failed and not the other on \(body.text): \(fast) vs \(oracle)")
            }
            #expect(typed.audit == tree.audit, "\(body.text)")
        }
        #expect(tree.serveShapeReads == 0)
        // Both ways were exercised: many bodies read typed, many fell back to the tree.
        #expect(wellFormedBodies > 50 && wellFormedBodies < 550, "\(wellFormedBodies) well-formed bodies of 600")
        #expect(typed.serveShapeReads >= wellFormedBodies && typed.serveShapeReads < 600)
        #expect(typed.audit.problemCount > 100, "the random bodies break in many ways")
    }

    /// Pages written by serve's own writer (``FeedAPI/pageJSON(_:rows:)``: its key order, no
    /// spaces, so every key is matched as serve's literal bytes) with texts of every kind (escapes,
    /// past ASCII, long enough for the eight-byte scan): each is read the typed way, and its page,
    /// cursors and rows are the tree's.
    @Test func pagesInServesOwnLayoutReadAsServesShapeEqualThePagesReadThroughPointers() throws {
        var random = SplitMix64(seed: 17)
        var convention = Convention.feedsim
        convention.rows = nil
        let typed = try Self.backend(convention, serveShape: true)
        let tree = try Self.backend(convention, serveShape: false)
        let texts = [
            "", "plain", "Café ☕️ \"quoted\"", "line\nbreak \\ slash /", "\u{1F600} emoji", "tab\tand \u{1} control",
            #"{"body_length":118,"comments":0,"image":"https://img.example/acb98a06519e8826/390x488.jpg","likes":78}"#,
            String(repeating: "long text without escapes ", count: 5),
        ]
        for round in 0..<200 {
            var items: [Item] = []
            var rows: [ItemRow] = []
            var publishedAt: Int64 = 1_770_000_000_000
            for index in 0..<Int(random.next() % 25) {
                publishedAt -= 1 + Int64(random.next() % 100_000)
                let id = Int64(100_000 - round * 30 - index)
                items.append(
                    Item(
                        id: id, publishedAt: publishedAt, kind: ["photo", "text", "link"][Int(random.next() % 3)],
                        width: 390, height: Double(40 + random.next() % 600) + (random.next() % 4 == 0 ? 0.5 : 0)))
                func text() -> String { texts[Int(random.next() % UInt64(texts.count))] }
                rows.append(ItemRow(id: id, title: text(), author: text(), payload: text()))
            }
            let page = Page(items: items, hasMoreBefore: random.next() % 2 == 0, hasMoreAfter: random.next() % 2 == 0)
            let exchange = HTTPExchange(
                url: "http://127.0.0.1:9/v1/feeds/home/items?round=\(round)", status: 200, headers: [:],
                body: FeedAPI.pageJSON(page, rows: rows), elapsedMs: 1, httpVersion: "1.1")
            let before = typed.serveShapeReads
            let fast = try typed.readPage(exchange, request: .newest, sent: nil, bound: nil)
            let oracle = try tree.readPage(exchange, request: .newest, sent: nil, bound: nil)
            #expect(typed.serveShapeReads == before + 1, "serve's own page was read the typed way")
            #expect(fast.page == oracle.page && fast.page.items == items)
            #expect(fast.nextToken == oracle.nextToken && fast.prevToken == oracle.prevToken)
            let ids = items.map(\.id)
            #expect(try typed.rows(ids: ids) == tree.rows(ids: ids))
            #expect(try typed.rows(ids: ids).rows == rows, "the texts as written")
        }
        #expect(typed.audit == tree.audit)
    }

    /// With rows read by id (the `feedsim` preset), pages are read without their title, author
    /// and payload, which may then be missing or of any type: the pages, cursors and audit are
    /// still the tree's.
    @Test func pagesReadWithoutTheirRowFieldsEqualThePagesReadThroughPointers() throws {
        var random = SplitMix64(seed: 16)
        // Serve's rows endpoint (docs/http-api.md: GET /v1/items?ids=…), which is what lets pages skip the row fields.
        #expect(Convention.feedsim.rows == "{origin}/v1/items?ids={ids}")
        let typed = try Self.backend(.feedsim, serveShape: true)
        let tree = try Self.backend(.feedsim, serveShape: false)
        var wellFormedBodies = 0
        for round in 0..<600 {
            let sent = "1700000000000:\(50_000 + round)"
            let body = Self.randomBody(&random, sent: sent)
            if body.wellFormed { wellFormedBodies += 1 }
            let exchange = HTTPExchange(
                url: "http://127.0.0.1:9/v1/feeds/home/items?round=\(round)", status: 200, headers: [:],
                body: Array(body.text.utf8), elapsedMs: 1, httpVersion: "1.1")
            let after = Cursor(publishedAt: 1_700_000_010_000, id: 60_000)
            let request: HTTPFeedBackend.PageRequest = round % 2 == 0 ? .newest : .after(after, sent)
            let bound: Cursor? = round % 2 == 0 ? nil : after
            let fast = Result { try typed.readPage(exchange, request: request, sent: sent, bound: bound) }
            let oracle = Result { try tree.readPage(exchange, request: request, sent: sent, bound: bound) }
            switch (fast, oracle) {
            case (.success(let a), .success(let b)):
                #expect(a.page == b.page, "\(body.text)")
                #expect(a.nextToken == b.nextToken && a.prevToken == b.prevToken, "\(body.text)")
            case (.failure(let a), .failure(let b)):
                #expect(String(describing: a) == String(describing: b))
            default:
                Issue.record("one way failed and not the other on \(body.text): \(fast) vs \(oracle)")
            }
            #expect(typed.audit == tree.audit, "\(body.text)")
        }
        // Every body of serve's exact shape, and those broken only in their row fields, were read the fast way.
        #expect(typed.serveShapeReads > wellFormedBodies && wellFormedBodies > 50, "\(typed.serveShapeReads) of 600 read as serve's shape")
    }

    @Test func rowsAnswersOfServesShapeEqualTheRowsReadThroughPointers() throws {
        var random = SplitMix64(seed: 6901)
        let typed = try Self.backend(.feedsim, serveShape: true)
        let tree = try Self.backend(.feedsim, serveShape: false)
        #expect(Convention.feedsim.rowsHaveServeShape)
        for round in 0..<300 {
            var elements: [String] = []
            for index in 0..<Int(random.next() % 5) {
                var fields: [String] = []
                switch random.next() % 8 {
                case 0: break
                case 1: fields.append(#""id":"\#(index + 10)""#)
                case 2: fields.append(#""id":"x\#(index)""#)
                case 3: fields.append(#""id":null"#)
                default: fields.append(#""id":\#(index + 1)"#)
                }
                for name in ["title", "author", "payload"] {
                    switch random.next() % 8 {
                    case 0: break
                    case 1: fields.append(#""\#(name)":null"#)
                    case 2: fields.append(#""\#(name)":5"#)
                    default: fields.append(#""\#(name)":"\#(name) \#(index) é""#)
                    }
                }
                fields.shuffle(using: &random)
                elements.append("{" + fields.joined(separator: ",") + "}")
            }
            let text = #"{"items":[\#(elements.joined(separator: ","))],"missing":[]}"#
            let exchange = HTTPExchange(
                url: "http://127.0.0.1:9/v1/items?round=\(round)", status: 200, headers: [:], body: Array(text.utf8),
                elapsedMs: 1, httpVersion: "1.1")
            var fast: [Int64: ItemRow] = [:]
            var oracle: [Int64: ItemRow] = [:]
            try typed.readRows(exchange, into: &fast)
            try tree.readRows(exchange, into: &oracle)
            #expect(fast == oracle, "\(text)")
            #expect(typed.audit == tree.audit, "\(text)")
        }
        #expect(typed.serveShapeReads > 30 && typed.serveShapeReads < 300)
    }

    @Test func onlyConventionsWithServesPointersReadPagesAsServesShape() {
        #expect(Convention.feedsim.pagesHaveServeShape)
        var pagesOnly = Convention.feedsim
        pagesOnly.rows = nil
        #expect(pagesOnly.pagesHaveServeShape)
        for other in [Convention.stripe, .relay, .link, .jsonapi] { #expect(!other.pagesHaveServeShape, "\(other.name)") }
        var renamed = Convention.feedsim
        renamed.fields["title"] = "/headline"
        #expect(!renamed.pagesHaveServeShape)
        var seconds = Convention.feedsim
        seconds.publishedAtUnit = "s"
        #expect(!seconds.pagesHaveServeShape)
    }
}

extension ServePageBodyTests {
    /// An id given twice on one page is reported once and kept once, on a page of 4 (the kept
    /// items looked through) as on a page of 70 (a set): ids n, n-1, …, 1 with id 3 again right
    /// after 2, so the feed shows n…1 and one duplicate.
    @Test(arguments: [4, 70])
    func anIdTwiceOnOnePageIsReportedOnceAndKeptOnce(count: Int) throws {
        var items = (1...count).reversed().map {
            Item(id: Int64($0), publishedAt: 1_700_000_000_000 + Int64($0) * 1000, kind: "photo", width: 390, height: 100)
        }
        let twoAt = try #require(items.firstIndex { $0.id == 2 })
        items.insert(items[twoAt - 1], at: twoAt + 1)  // 3 again, after 2
        let rows = items.map { ItemRow(id: $0.id, title: "t\($0.id)", author: "a", payload: "{}") }
        let exchange = HTTPExchange(
            url: "http://127.0.0.1:9/v1/feeds/home/items", status: 200, headers: [:],
            body: FeedAPI.pageJSON(Page(items: items, hasMoreBefore: false, hasMoreAfter: false), rows: rows),
            elapsedMs: 1, httpVersion: "1.1")
        var convention = Convention.feedsim
        convention.rows = nil
        let backend = try Self.backend(convention, serveShape: true)
        let fetched = try backend.readPage(exchange, request: .newest, sent: nil, bound: nil)
        #expect(fetched.page.items.map(\.id) == (1...count).reversed().map(Int64.init))
        #expect(backend.audit.counts[.duplicateItem] == 1)
        #expect(backend.audit.counts[.outOfOrder] == nil)
        #expect(backend.audit.examples.first?.detail == "item 3 (items[\(count - 1)]) was received already")
    }
}

@Suite struct RequestTemplateTests {
    @Test func templatesFillEveryPlaceholderAndJoinASourceQueryWithAnAmpersand() throws {
        let served = try HTTPFeedBackend(source: "http://127.0.0.1:9", convention: .feedsim, client: try HTTPClient())
        #expect(
            served.expand(Convention.feedsim.after!, limit: 20, cursor: "1700000000000:5")
                == "http://127.0.0.1:9/v1/feeds/home/items?limit=20&after=1700000000000%3A5")
        #expect(served.expand(Convention.feedsim.rows!, ids: [3, 1, 2]) == "http://127.0.0.1:9/v1/items?ids=3,1,2")
        // A placeholder without a value stays as written.
        #expect(served.expand("{url}?limit={limit}") == "http://127.0.0.1:9/v1/feeds/home/items?limit={limit}")
        let stripe = try HTTPFeedBackend(
            source: "https://api.example.com/v1/charges?customer=cus_1", convention: .stripe, client: try HTTPClient())
        #expect(
            stripe.expand(Convention.stripe.after!, limit: 3, cursor: "ch_9 z")
                == "https://api.example.com/v1/charges?customer=cus_1&limit=3&starting_after=ch_9%20z")
        #expect(stripe.templateParts("{x}{url}?{limit}}") == [.text("{x}"), .url, .text("&"), .limit, .text("}")])
        // A bare origin with a query: the feed's path goes before the query (it was appended after
        // it: `…/?x=1/v1/feeds/home/items&limit=20`, a 404).
        let queried = try HTTPFeedBackend(source: "http://127.0.0.1:9/?x=1", convention: .feedsim, client: try HTTPClient())
        #expect(queried.expand(Convention.feedsim.first, limit: 20) == "http://127.0.0.1:9/v1/feeds/home/items?x=1&limit=20")
    }

    /// The percent-encoding of cursors against Foundation's `addingPercentEncoding` with the
    /// RFC 3986 unreserved set, on random text of ASCII, Latin, CJK and emoji.
    @Test func cursorsArePercentEncodedAsFoundationEncodesThem() {
        var random = SplitMix64(seed: 3986)
        let alphabet = Array("az09-._~:/?#[]@!$&'()*+,;= %\"{}é中😀\u{0}\n")
        var unreserved = CharacterSet()
        unreserved.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for _ in 0..<2000 {
            let text = String((0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            #expect(FeedPath.queryValue(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved), "\(text)")
        }
    }
}
