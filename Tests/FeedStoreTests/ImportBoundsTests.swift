import FeedResources
import FeedModel
import Foundation
import Testing

@testable import FeedStore

/// Issue 11: every stored number is bounded at import, a repeated header column and invalid
/// UTF-8 are refused naming the line and field, and timestamp arithmetic saturates.
@Suite struct ImportBoundsTests {
    func csv(_ text: String) throws -> [NewItem] {
        try ItemImporter.parse(Data(text.utf8), format: .csv, file: "f.csv")
    }

    func jsonl(_ bytes: [UInt8]) throws -> [NewItem] {
        try ItemImporter.parse(Data(bytes), format: .jsonl, file: "f.jsonl")
    }

    @Test func aHeaderRepeatingAColumnIsAnErrorNamingIt() {
        #expect(
            throws: ImportError(file: "f.csv", location: "line 1", field: "kind", reason: "column given twice in the header")
        ) {
            try csv("published_at,kind,width,height,kind\n1,a,1,1,b\n")
        }
    }

    // 9999-12-31T23:59:59.999Z = 2 932 897 days × 86 400 000 ms − 1 (days from 1970-01-01 to
    // 10000-01-01, Hinnant's days_from_civil).
    @Test(arguments: [
        ("9223372036854775807", false), ("-1", false), ("253402300800000", false), ("253402300799999", true), ("0", true),
    ])
    func publishedAtMustLieBetween1970And9999(value: String, accepted: Bool) throws {
        let text = "published_at,kind,width,height\n\(value),a,1,1\n"
        let json = Array(#"{"published_at": "\#(value)", "kind": "a", "width": 1, "height": 1}"#.utf8)
        if accepted {
            #expect(try csv(text).first?.publishedAt == Int64(value))
            #expect(try jsonl(json).first?.publishedAt == Int64(value))
        } else {
            for parse in [{ try csv(text) }, { try jsonl(json) }] {
                do {
                    _ = try parse()
                    Issue.record("\(value) was accepted")
                } catch let error as ImportError {
                    #expect(error.location == "line 1" || error.location == "line 2")
                    #expect(error.field == "published_at")
                    #expect(error.reason.contains("1970-01-01 to 9999-12-31"))
                }
            }
        }
        #expect(Timestamp.storedRange.upperBound == 2_932_897 * 86_400_000 - 1)
        #expect(Timestamp.iso8601(milliseconds: Timestamp.storedRange.upperBound) == "9999-12-31T23:59:59.999Z")
    }

    @Test(arguments: [("0", false), ("1000000.5", false), ("1e7", false), ("1000000", true), ("0.5", true)])
    func sizesMustBeAboveZeroAndAtMostAMillionPoints(value: String, accepted: Bool) throws {
        let text = "published_at,kind,width,height\n1,a,\(value),10\n"
        if accepted {
            #expect(try csv(text).first?.width == Double(value))
        } else {
            #expect(throws: ImportError.self) { try csv(text) }
            do { _ = try csv(text) } catch let error as ImportError {
                #expect(error.field == "width" && error.location == "line 2")
            }
        }
    }

    /// A repeated id was named by item number at its first occurrence; now by the repeat's line
    /// (a quoted title spanning lines included) and the first one's.
    @Test func aRepeatedIdIsNamedOnItsOwnLine() {
        #expect(
            throws: ImportError(
                file: "f.csv", location: "line 5", field: "id",
                reason: "item id 5 is twice in the file (first on line 2); ids are unique across feeds")
        ) {
            try csv("id,published_at,kind,width,height,title\n5,1,a,1,1,x\n6,2,a,1,1,\"two\nlines\"\n5,3,a,1,1,y\n")
        }
    }

    /// Hex floats were read by `Double(_:)`: `0x10` became 16 points, `0x1p-3` 0.125.
    @Test(arguments: ["0x10", "0x1p-3", "0X1P2", "1_0"])
    func aSizeIsDecimal(value: String) {
        #expect(throws: ImportError.self) { try csv("published_at,kind,width,height\n1,a,\(value),10\n") }
    }

    /// The lengths serve's POST keeps (`docs/http-api.md` calls them import's bounds): a kind of
    /// 1 to 64 characters, titles and authors of at most 10,000.
    @Test func kindsAndTextsKeepServesLengths() throws {
        let kind64 = String(repeating: "k", count: 64)
        #expect(try csv("published_at,kind,width,height\n1,\(kind64),1,1\n").first?.kind == kind64)
        #expect(
            throws: ImportError(file: "f.csv", location: "line 2", field: "kind", reason: "expected 1 to 64 characters, got 65")
        ) { try csv("published_at,kind,width,height\n1,\(kind64)k,1,1\n") }
        let title = String(repeating: "é", count: 10_000)
        #expect(try csv("published_at,kind,width,height,title\n1,a,1,1,\(title)\n").first?.title == title)
        #expect(
            throws: ImportError(
                file: "f.jsonl", location: "line 1", field: "author", reason: "expected at most 10000 characters, got 10001")
        ) {
            try jsonl(Array(#"{"published_at": 1, "kind": "a", "width": 1, "height": 1, "author": "\#(title)x"}"#.utf8))
        }
    }

    @Test(arguments: [("0", false), ("-3", false), ("9007199254740992", false), ("9007199254740991", true), ("1", true)])
    func idsMustBeInRange(value: String, accepted: Bool) throws {
        let text = "id,published_at,kind,width,height\n\(value),1,a,1,1\n"
        if accepted {
            #expect(try csv(text).first?.id == Int64(value))
        } else {
            do {
                _ = try csv(text)
                Issue.record("id \(value) was accepted")
            } catch let error as ImportError {
                #expect(error.field == "id" && error.location == "line 2")
            }
        }
    }

    @Test func invalidUTF8InAJSONLinesImportIsRefusedWithLineAndField() {
        let good = Array(#"{"published_at": 1, "kind": "a", "width": 1, "height": 1}"#.utf8)
        // Line 2's title holds 0xFF, which no UTF-8 sequence contains: the 72nd byte of the line
        // (71 bytes of text before it, counted by hand with `len()` in Python).
        let bad = Array(#"{"published_at": 2, "kind": "a", "width": 1, "height": 1, "title": "caf"#.utf8) + [0xFF]
            + Array(#""}"#.utf8)
        #expect(throws: ImportError(file: "f.jsonl", location: "line 2", field: "title", reason: "invalid UTF-8 at byte 72 of the line")) {
            try jsonl(good + [0x0A] + bad)
        }
    }

    @Test func invalidUTF8InACSVImportIsRefusedWithLineAndField() {
        // Line 3, field author: an overlong encoding of "/" (0xC0 0xAF), never valid.
        var bytes = Array("published_at,kind,width,height,title,author\n1,a,1,1,x,y\n2,a,1,1,\"x, y\",b".utf8)
        bytes += [0xC0, 0xAF] + Array("\n".utf8)
        #expect(throws: ImportError(file: "f.csv", location: "line 3", field: "author", reason: "invalid UTF-8 (byte 73 of the file)")) {
            try ItemImporter.parse(Data(bytes), format: .csv, file: "f.csv")
        }
    }

    @Test(arguments: [
        ([0x61], nil), ([0xC3, 0xA9], nil), ([0xE2, 0x82, 0xAC], nil), ([0xF0, 0x9F, 0x98, 0x80], nil),
        ([0x61, 0x80], 1), ([0xC3], 0), ([0xE0, 0x80, 0x80], 0), ([0xED, 0xA0, 0x80], 0), ([0xF4, 0x90, 0x80, 0x80], 0),
        ([0x61, 0xE2, 0x82], 1), ([0xFE], 0),
    ] as [([UInt8], Int?)])
    func theUTF8CheckFollowsTheStandardsTableOfWellFormedSequences(bytes: [UInt8], invalidAt: Int?) {
        // Table 3-7 of the Unicode Standard: E0 needs A0...BF next, ED 80...9F (no surrogates),
        // F4 80...8F (nothing above U+10FFFF); C0, C1, F5...FF never occur.
        #expect(UTF8Validation.firstInvalidByte(in: bytes) == invalidAt)
        #expect((String(validating: bytes, as: UTF8.self) == nil) == (invalidAt != nil), "agrees with the standard library")
    }

    @Test func isoTimesRefuseAnOffsetPast23_59() {
        #expect(Timestamp.milliseconds(iso8601: "2026-01-01T00:00:00+99:99") == nil)
        #expect(Timestamp.milliseconds(iso8601: "2026-01-01T00:00:00+24:00") == nil)
        #expect(Timestamp.milliseconds(iso8601: "2026-01-01T00:00:00+00:60") == nil)
        // 2026-01-01T00:00:00Z is 1 767 225 600 000 ms; +23:59 is 86 340 000 ms earlier.
        let expected: Int64 = 1_767_225_600_000 - 86_340_000
        let parsed = Timestamp.milliseconds(iso8601: "2026-01-01T00:00:00+23:59")
        #expect(parsed == expected)
    }

    @Test func timestampAdditionSaturatesInsteadOfTrapping() {
        #expect(Timestamp.saturatingAdd(Int64.max, 1) == Int64.max)
        #expect(Timestamp.saturatingAdd(Int64.max - 1, 1) == Int64.max)
        #expect(Timestamp.saturatingAdd(Int64.min, -1) == Int64.min)
        #expect(Timestamp.saturatingAdd(40, 2) == 42)
    }

    @Test func theGeneratorPastInt64MaxStaysThereInsteadOfTrapping() throws {
        var generator = ItemGenerator(preset: try Preset.named("mixed"), seed: 1, start: Int64.max - 5)
        let items = generator.items(count: 50, notBefore: Int64.max)
        #expect(items.allSatisfy { $0.publishedAt == Int64.max })
        #expect(generator.lastPublishedAt == Int64.max)
    }

    @Test func anInterruptedSeedOrInsertRollsBackEverything() throws {
        let store = try ItemStore.inMemory()
        var generator = ItemGenerator(preset: try Preset.named("photos"), seed: 1)
        var checks = 0
        #expect(throws: StoreError.interrupted) {
            try Seeder.seed(store, feedNamed: "home", generator: &generator, count: 5_000, shouldStop: {
                checks += 1
                return checks > 3  // stop after 3 000 items were written inside the transaction
            })
        }
        #expect(checks == 4)
        #expect(try store.feeds().isEmpty)
        #expect(throws: StoreError.interrupted) {
            try store.insert(items: (1...10).map { stub(id: nil, at: $0) }, feedNamed: "x", shouldStop: { true })
        }
        #expect(try store.stats().totalItems == 0)
    }
}

/// Issue 11: opening a store tells FeedSim's schema from someone else's by its tables, never
/// changes a file it refuses, and opens read-only for the commands that only read.
@Suite struct StoreOpeningTests {
    func makeForeign(_ database: TemporaryDatabase, _ sql: String) throws {
        let other = try Connection(path: ":memory:")
        try other.execute("ATTACH DATABASE '\(database.path)' AS other")
        try other.execute(sql)
        try other.execute("DETACH DATABASE other")
    }

    @Test(arguments: [
        ("CREATE TABLE other.notes(body TEXT); PRAGMA other.user_version = 1", "it has tables (notes) but no 'feeds' table"),
        ("CREATE TABLE other.feeds(id INTEGER); PRAGMA other.user_version = -2",
         "its user_version is -2, not a FeedSim schema version"),
        ("PRAGMA other.user_version = 1", "its user_version is 1 but it has no FeedSim tables"),
        ("CREATE TABLE other.feeds(id, name); CREATE TABLE other.items(id, feed_id); PRAGMA other.user_version = 1",
         "its 'items' table has no column author, height, kind, payload, published_at, title, width"),
    ])
    func aForeignFileIsRefusedInOneLineAndLeftAsItWas(sql: String, reason: String) throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        try makeForeign(database, sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: database.path))
        for open in [{ _ = try ItemStore(path: database.path) }, { _ = try ItemStore.openReadOnly(path: database.path) }] {
            #expect(throws: StoreError.foreignDatabase(path: database.path, reason: reason)) { try open() }
        }
        #expect(!StoreError.foreignDatabase(path: database.path, reason: reason).description.contains("\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: database.path)) == before)
    }

    @Test func aZeroByteFileIsEmptyForReadersAndNewForWriters() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        FileManager.default.createFile(atPath: database.path, contents: Data())
        #expect(throws: StoreError.emptyDatabase(path: database.path)) { try ItemStore.openReadOnly(path: database.path) }
        #expect(try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int == 0)
        #expect(try ItemStore(path: database.path).schemaVersion == 1)
    }

    @Test func aReadOnlyStoreReadsWithoutSwitchingTheJournalOrWriting() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        do {
            // A FeedSim database left in rollback-journal mode: a read-only open must keep it so.
            let store = try ItemStore(path: database.path)
            try store.insert(items: [stub(id: 1, at: 10), stub(id: 2, at: 20)], feedNamed: "home")
            try store.connection.execute("PRAGMA journal_mode = DELETE")
        }
        let store = try ItemStore.openReadOnly(path: database.path)
        #expect(store.isReadOnly)
        #expect(try store.pages(feed: try store.requireFeed(named: "home")).newest(limit: 5).items.map(\.id) == [2, 1])
        #expect(try store.connection.scalarText("PRAGMA journal_mode") == "delete")
        #expect(throws: SQLiteError.self) { try store.insert(items: [stub(id: 3, at: 30)], feedNamed: "home") }
        #expect(!FileManager.default.fileExists(atPath: database.path + "-wal"))
    }

    @Test func pathsWithURISpecialCharactersOpenTheNamedFile() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let path = database.directory.appendingPathComponent("a b%20?#c.sqlite").path
        try ItemStore(path: path).insert(items: [stub(id: 1, at: 1)], feedNamed: "home")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try ItemStore.openReadOnly(path: path).stats().totalItems == 1)
        #expect(Connection.uri(path: "/x/a b%.sqlite", readOnly: false) == "file:/x/a%20b%25.sqlite")
    }
}
