import FeedPostgres
import Testing

/// `PostgresStore.redacted(_:)`, which every message, hint and report echoing `--db` goes
/// through: a password never shows, parsed or not; a URI without one is left as given.
struct PostgresRedactionTests {
    @Test func aPasswordIsMaskedInURIsThatParseAndInURIsThatDoNot() {
        #expect(PostgresStore.redacted("postgresql://feeds:secret@127.0.0.1:23571/feeds") == "postgresql://feeds:***@127.0.0.1:23571/feeds")
        #expect(PostgresStore.redacted("postgresql://feeds:secret@127.0.0.1:notaport/feeds") == "postgresql://feeds:***@127.0.0.1:notaport/feeds")
        #expect(PostgresStore.redacted("postgresql://feeds:secret@[::1/feeds") == "postgresql://feeds:***@[::1/feeds")
        #expect(PostgresStore.redacted("postgres://a:p@ss:w@rd@h/db?sslmode=disable") == "postgres://a:***@h/db?sslmode=disable")
        #expect(PostgresStore.redacted("postgresql://h/db?user=u&password=pw&sslmode=disable") == "postgresql://h/db?user=u&password=***&sslmode=disable")
        #expect(PostgresStore.redacted("host=h password=pw dbname=d") == "host=h password=*** dbname=d")
    }

    @Test func aURIWithoutAPasswordIsLeftAsGiven() {
        for uri in ["postgresql://feeds@127.0.0.1:5432/feeds", "postgresql:///feeds", "postgres://h/db?connect_timeout=2"] {
            #expect(PostgresStore.redacted(uri) == uri)
        }
    }

    @Test func libpqsOwnMessageQuotingTheURILosesThePasswordToo() {
        let uri = "postgresql://feeds:secret@[::1/feeds"
        let message = "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"\(uri)\""
        #expect(PostgresStore.redactingPasswords(message, of: uri)
            == "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://feeds:***@[::1/feeds\"")
    }
}
