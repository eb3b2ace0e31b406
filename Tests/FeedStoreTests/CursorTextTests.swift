import FeedModel
import FeedStore
import Testing

@Suite struct CursorTextTests {
    @Test func textFormIsVersionedBase64URLOfBigEndianFields() throws {
        // publishedAt 1 and id 2: bytes 00×7 01 00×7 02. Base64 of 16 bytes = 22 chars unpadded:
        // "AAAAAAAAAAEAAAAAAAAAAg" (standard base64 of those bytes is "AAAAAAAAAAEAAAAAAAAAAg==").
        let cursor = Cursor(publishedAt: 1, id: 2)
        #expect(cursor.text == "v1.AAAAAAAAAAEAAAAAAAAAAg")
        #expect(try Cursor(text: "v1.AAAAAAAAAAEAAAAAAAAAAg") == cursor)
    }

    @Test func textRoundTripsForRandomAndExtremeCursors() throws {
        var random = SplitMix64(seed: 99)
        var cursors = [Cursor(publishedAt: .min, id: .max), Cursor(publishedAt: -1, id: 0)]
        for _ in 0..<1_000 {
            cursors.append(Cursor(publishedAt: Int64(bitPattern: random.next()), id: Int64(bitPattern: random.next())))
        }
        for cursor in cursors {
            let text = cursor.text
            #expect(try Cursor(text: text) == cursor)
            #expect(text.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) })
        }
    }

    @Test(arguments: ["", "v2.AAAAAAAAAAEAAAAAAAAAAg", "v1.AAAA", "v1.AAAAAAAAAAEAAAAAAAAAAg==", "v1.AAAAAAAAAAEAAAAAAAAAAh", "1767225600000:5"])
    func malformedTextIsAClearError(text: String) {
        let error = #expect(throws: CursorTextError.self) { try Cursor(text: text) }
        #expect(error?.description.hasPrefix("malformed cursor '\(text)'") == true)
    }
}

@Suite struct TimestampTests {
    @Test func parsesUTCAndOffsetsIntoUnixMilliseconds() {
        // 2026-01-01T00:00:00Z: 56 years after 1970 with 14 leap days (1972...2024):
        // (56 × 365 + 14) × 86 400 = 1 767 225 600 s.
        #expect(Timestamp.milliseconds(iso8601: "2026-01-01T00:00:00Z") == 1_767_225_600_000)
        #expect(Timestamp.milliseconds(iso8601: "2026-01-01") == 1_767_225_600_000)
        // One hour ahead of UTC: the same instant is one hour earlier in UTC.
        #expect(Timestamp.milliseconds(iso8601: "2026-01-01T01:00:00+01:00") == 1_767_225_600_000)
        #expect(Timestamp.milliseconds(iso8601: "1970-01-01T00:00:01.250Z") == 1_250)
        // 2017-10-04T18:59:10Z (a Wikipedia timestamp): 17 443 days × 86 400 + 68 350 s
        // (18 h 59 min 10 s) = 1 507 143 550 s.
        #expect(Timestamp.milliseconds(iso8601: "2017-10-04T18:59:10Z") == 1_507_143_550_000)
        #expect(Timestamp.iso8601(milliseconds: 1_767_225_600_000) == "2026-01-01T00:00:00.000Z")
    }

    @Test(arguments: ["2026-13-01", "2026-02-30", "2026-01-01T25:00:00Z", "2026-01-01T00:00:00", "yesterday", ""])
    func rejectsMalformedTimes(text: String) {
        #expect(Timestamp.milliseconds(iso8601: text) == nil)
    }
}
