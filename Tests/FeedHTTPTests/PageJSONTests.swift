import FeedModel
import Foundation
import Testing

@testable import FeedHTTP

/// Serve's page answer written as bytes (``FeedAPI/pageJSON(_:rows:)``, ``JSONBytes``) read back
/// by `JSONSerialization` as the oracle: every field of random pages (texts with quotes,
/// backslashes, control characters and UTF-8 past ASCII; fractional and whole sizes; ids and times
/// near the ends of Int64) comes back as given, in the documented key order.
@Suite struct PageJSONTests {
    static let pieces = ["", "plain", "\"quoted\"", "back\\slash", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1f}\u{7f}", "é", "中文", "😀", "/"]

    static func text(_ random: inout SplitMix64) -> String {
        (0..<Int(random.next() % 5)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    @Test func randomPagesComeBackFieldForFieldThroughJSONSerialization() throws {
        var random = SplitMix64(seed: 2026)
        for round in 0..<400 {
            var items: [Item] = []
            var rows: [ItemRow] = []
            for index in 0..<Int(random.next() % 6) {
                let id: Int64 = round % 50 == 0 && index == 0 ? Int64.max : Int64(random.next() % 1_000_000) - 1000
                let publishedAt: Int64 = round % 50 == 1 && index == 0 ? Int64.min + 1 : 1_700_000_000_000 - Int64(index) * 1000
                let width = random.next() % 2 == 0 ? Double(random.next() % 1000) : Double(random.next() % 10_000) / 8
                let height = [76.0, 292.5, 0.125, 1e15, 123_456.75][Int(random.next() % 5)]
                items.append(Item(id: id, publishedAt: publishedAt, kind: Self.text(&random), width: width, height: height))
                // Some rows vanished between the page and the rows read: empty texts, payload {}.
                if random.next() % 7 != 0 {
                    rows.append(ItemRow(id: id, title: Self.text(&random), author: Self.text(&random), payload: Self.text(&random)))
                }
            }
            let page = Page(items: items, hasMoreBefore: random.next() % 2 == 0, hasMoreAfter: random.next() % 2 == 0)
            let bytes = FeedAPI.pageJSON(page, rows: rows.shuffled(using: &random))
            #expect(bytes.last == UInt8(ascii: "\n"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(Set(object.keys) == ["items", "next_cursor", "prev_cursor", "has_more_after", "has_more_before"])
            #expect(object["has_more_after"] as? Bool == page.hasMoreAfter)
            #expect(object["has_more_before"] as? Bool == page.hasMoreBefore)
            #expect((object["next_cursor"] as? String) == page.lastCursor?.text)
            #expect((object["prev_cursor"] as? String) == page.firstCursor?.text)
            if items.isEmpty { #expect(object["next_cursor"] is NSNull && object["prev_cursor"] is NSNull) }
            let list = try #require(object["items"] as? [[String: Any]])
            #expect(list.count == items.count)
            for (item, element) in zip(items, list) {
                let row = rows.first { $0.id == item.id }
                #expect((element["id"] as? NSNumber)?.int64Value == item.id)
                #expect((element["published_at"] as? NSNumber)?.int64Value == item.publishedAt)
                #expect(element["kind"] as? String == item.kind)
                #expect((element["width"] as? NSNumber)?.doubleValue == item.width)
                #expect((element["height"] as? NSNumber)?.doubleValue == item.height)
                #expect(element["title"] as? String == row?.title ?? "")
                #expect(element["author"] as? String == row?.author ?? "")
                #expect(element["payload"] as? String == row?.payload ?? "{}")
                #expect(element["image_url"] as? String == "/v1/images/\(item.id).svg")
            }
            // The documented key order (docs/http-api.md), which clients reading by position see.
            let text = String(decoding: bytes, as: UTF8.self)
            if let first = items.first {
                let keys = ["\"id\":\(first.id)", "\"published_at\":", "\"kind\":", "\"width\":", "\"height\":", "\"title\":",
                    "\"author\":", "\"image_url\":", "\"payload\":"]
                let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
                #expect(positions.count == keys.count && positions == positions.sorted(), "\(text)")
            }
        }
    }

    /// Numbers as ``JSONText/number(_:)`` wrote them before: whole values below 1e15 without a
    /// fraction, the rest as Swift's `description` (`1000000000000000.0`), `null` for NaN and infinity.
    @Test func numbersAreWrittenInTheirShortestForm() {
        var json = JSONBytes()
        for value in [390.0, 292.5, -0.5, 1e15, 1e14, 0.1, .nan, .infinity] {
            json.number(value)
            json.byte(UInt8(ascii: " "))
        }
        json.integer(Int64.min)
        json.byte(UInt8(ascii: " "))
        json.integer(0)
        #expect(
            String(decoding: json.bytes, as: UTF8.self)
                == "390 292.5 -0.5 1000000000000000.0 100000000000000 0.1 null null -9223372036854775808 0")
    }
}
