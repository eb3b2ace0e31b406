import FeedModel
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedStore

@Suite struct ImportTests {
    @Test func csvWithQuotedFieldsImportsEveryRow() throws {
        let csv = #"""
            id,published_at,kind,width,height,title,author,payload
            1,1000,photo,1080,1350,"Hello, ""world""",ana,"{""a"":1}"
            ,2000,text,390,120,"two
            lines",bo,
            """#
        let items = try ItemImporter.parse(Data(csv.utf8), format: .csv, file: "x.csv")
        #expect(
            items == [
                NewItem(
                    id: 1, publishedAt: 1000, kind: "photo", width: 1080, height: 1350, title: "Hello, \"world\"",
                    author: "ana", payload: "{\"a\":1}"),
                NewItem(
                    id: nil, publishedAt: 2000, kind: "text", width: 390, height: 120, title: "two\nlines", author: "bo"
                ),
            ])
    }

    /// The rule is `sizeRange`, 0 < size ≤ 1000000: 0 and -5 are refused with the rule and the value.
    @Test func aSizeOutOfRangeIsRefusedWithTheRealRange() throws {
        for (height, shown) in [("-5", "-5"), ("0", "0"), ("1000000.5", "1000000.5"), ("1e300", "1e+300")] {
            let csv = "published_at,kind,width,height\n1,a,1,\(height)\n"
            #expect(
                throws: ImportError(
                    file: "f.csv", location: "line 2", field: "height",
                    reason: "expected a size in points, more than 0 and at most 1000000, got \(shown)")
            ) {
                try ItemImporter.parse(Data(csv.utf8), format: .csv, file: "f.csv")
            }
        }
        let largest = try ItemImporter.parse(Data("published_at,kind,width,height\n1,a,0.5,1000000\n".utf8), format: .csv, file: "f.csv")
        #expect(largest.map(\.height) == [1_000_000])
    }

    /// JSONSerialization keeps the last of two equal keys; the importer refuses the line, as it
    /// refuses a CSV header naming a column twice. Keys compare after unescaping; nested objects
    /// (a payload) may repeat their own keys' names.
    @Test func aJSONLinesObjectGivingAKeyTwiceIsRefused() throws {
        let lines = """
            {"id": 1, "published_at": 1, "kind": "a", "width": 1, "height": 1, "payload": {"id": 3}}
            {"id": 1, "published_at": 2, "kind": "a", "width": 1, "height": 1, "\\u0069d": 2}
            """
        #expect(throws: ImportError(file: "f.jsonl", location: "line 2", field: "id", reason: "key given twice in the object")) {
            try ItemImporter.parse(Data(lines.utf8), format: .jsonl, file: "f.jsonl")
        }
        let one = try ItemImporter.parse(Data(lines.split(separator: "\n")[0].utf8), format: .jsonl, file: "f.jsonl")
        #expect(one.map(\.id) == [1])
    }

    @Test func csvErrorNamesTheLineAndField() throws {
        // Line 3 is the second data row; its height is not a number.
        let csv = "published_at,kind,width,height\n1,a,1,1\n2,a,1,tall\n"
        #expect(
            throws: ImportError(
                file: "f.csv", location: "line 3", field: "height",
                reason: "expected a size in points, more than 0 and at most 1000000")
        ) {
            try ItemImporter.parse(Data(csv.utf8), format: .csv, file: "f.csv")
        }
        #expect(throws: ImportError(file: "f.csv", location: "line 1", field: "width", reason: "missing column")) {
            try ItemImporter.parse(Data("published_at,kind,height\n".utf8), format: .csv, file: "f.csv")
        }
        #expect(throws: ImportError(file: "f.csv", location: "line 2", field: "", reason: "expected 4 fields, found 3"))
        {
            try ItemImporter.parse(Data("published_at,kind,width,height\n1,a,1\n".utf8), format: .csv, file: "f.csv")
        }
    }

    @Test func jsonLinesErrorNamesTheLineAndFieldAndNothingIsWritten() throws {
        let good = #"{"id": 5, "published_at": 10, "kind": "a", "width": 1, "height": 2, "payload": {"z": 1, "a": 2}}"#
        let items = try ItemImporter.parse(Data((good + "\n\n").utf8), format: .jsonl, file: "a.jsonl")
        #expect(items == [NewItem(id: 5, publishedAt: 10, kind: "a", width: 1, height: 2, payload: #"{"a":2,"z":1}"#)])

        let bad = good + "\n" + #"{"published_at": 1.5, "kind": "a", "width": 1, "height": 2}"#
        #expect(
            throws: ImportError(
                file: "a.jsonl", location: "line 2", field: "published_at", reason: "expected an integer, got 1.5")
        ) {
            try ItemImporter.parse(Data(bad.utf8), format: .jsonl, file: "a.jsonl")
        }
        #expect(throws: ImportError(file: "a.jsonl", location: "line 1", field: "kind", reason: "missing")) {
            try ItemImporter.parse(
                Data(#"{"published_at": 1, "width": 1, "height": 2}"#.utf8), format: .jsonl, file: "a.jsonl")
        }
    }

    @Test func importIntoANewFeedWritesNeitherFeedNorItemsWhenAnItemFails() throws {
        let store = try ItemStore.inMemory()
        try store.insert(items: [stub(id: 2, at: 1)], feedNamed: "existing")
        #expect(throws: StoreError.duplicateID(2)) {
            try store.insert(items: [stub(id: 1, at: 1), stub(id: 2, at: 1)], feedNamed: "new")
        }
        #expect(try store.feedID(named: "new") == nil)
        #expect(try store.rows(ids: [1]).missing == [1])
    }

    /// Distinct `pageid`s anywhere in the JSON tree: a walk that knows nothing of the file's sections.
    static func distinctPageIDs(in url: URL) throws -> Set<Int64> {
        var ids = Set<Int64>()
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let id = object["pageid"] as? NSNumber { ids.insert(id.int64Value) }
                for child in object.values { walk(child) }
            } else if let array = value as? [Any] {
                for child in array { walk(child) }
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(contentsOf: url)))
        return ids
    }

    @Test(
        realDataAvailable,
        arguments: [
            // SOURCES.md: onthisday has 574 page cards, 554 distinct pages; mostread 43 articles.
            ("wikipedia-onthisday-02-06.json", 554), ("wikipedia-mostread-2016-11-06.json", 43),
        ])
    func realWikipediaFileImportsOneItemPerDistinctPage(name: String, documentedCount: Int) throws {
        let directory = try #require(RealData.directory)
        let url = directory.appendingPathComponent(name)
        let expected = try Self.distinctPageIDs(in: url)
        #expect(expected.count == documentedCount)
        let items = try ItemImporter.read(url, format: .wikimedia)
        #expect(items.count == expected.count)
        #expect(Set(items.compactMap(\.id)) == expected)
        #expect(items.allSatisfy { $0.width > 0 && $0.height > 0 && !$0.title.isEmpty })

        let store = try ItemStore.inMemory()
        let (feed, _) = try store.insert(items: items, feedNamed: "wiki")
        let stats = try store.stats()
        #expect(stats.totalItems == expected.count)
        var walked: [Item] = []
        var page = try store.pages(feed: feed).newest(limit: 50)
        walked += page.items
        while page.hasMoreAfter, let last = page.lastCursor {
            page = try store.pages(feed: feed).after(last, limit: 50)
            walked += page.items
        }
        #expect(walked.count == expected.count)
    }

    @Test(realDataAvailable) func onThisDaySectionsBecomeKindsWithFirstCardWinning() throws {
        let directory = try #require(RealData.directory)
        let url = directory.appendingPathComponent("wikipedia-onthisday-02-06.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        // Independent count: first section (in the documented order) in which each page appears.
        var firstSection: [Int64: String] = [:]
        for section in ["selected", "events", "births", "deaths", "holidays"] {
            for entry in root[section] as! [[String: Any]] {
                for page in entry["pages"] as! [[String: Any]] {
                    let id = (page["pageid"] as! NSNumber).int64Value
                    if firstSection[id] == nil { firstSection[id] = section }
                }
            }
        }
        let items = try ItemImporter.read(url, format: .wikimedia)
        #expect(Dictionary(uniqueKeysWithValues: items.map { ($0.id!, $0.kind) }) == firstSection)
    }

    /// `Seeds/wikimedia/onthisday-items.csv` is exactly what the importer makes of the real file
    /// (numbers only). `FEEDSIM_RECORD_SEEDS=1` rewrites it and fails, so a recording never passes.
    @Test(realDataAvailable) func shippedOnThisDayExtractMatchesTheImporter() throws {
        let directory = try #require(RealData.directory)
        let items = try ItemImporter.read(
            directory.appendingPathComponent("wikipedia-onthisday-02-06.json"), format: .wikimedia)
        let csv = ItemCSV.render(items, columns: ["id", "published_at", "kind", "width", "height"])
        let shipped = RealData.packageRoot.appendingPathComponent("Seeds").appendingPathComponent("wikimedia/onthisday-items.csv")
        if ProcessInfo.processInfo.environment["FEEDSIM_RECORD_SEEDS"] == "1" {
            try csv.write(to: shipped, atomically: true, encoding: .utf8)
            Issue.record("recorded \(shipped.path); run again without FEEDSIM_RECORD_SEEDS")
            return
        }
        #expect(try String(contentsOf: shipped, encoding: .utf8) == csv)
        let reimported = try ItemImporter.read(shipped, format: .csv)
        #expect(reimported.map(\.id) == items.map(\.id))
        #expect(reimported.map(\.height) == items.map(\.height))
    }

    @Test func wikimediaErrorNamesTheEntryAndField() throws {
        let json =
            #"{"births": [{"text": "x", "pages": [{"pageid": 1, "timestamp": "2017-01-01T00:00:00Z", "displaytitle": "A"}, {"pageid": 2, "timestamp": "soon", "displaytitle": "B"}]}]}"#
        #expect(
            throws: ImportError(
                file: "w.json", location: "births[0].pages[1]", field: "timestamp",
                reason: "expected ISO 8601 time, got 'soon'")
        ) {
            try ItemImporter.parse(Data(json.utf8), format: .wikimedia, file: "w.json")
        }
    }
}
