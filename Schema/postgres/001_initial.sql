-- FeedSim item store for PostgreSQL (and CockroachDB, YugabyteDB, Citus), schema version 1.
-- Applied by FeedPostgres's migrator inside one transaction that also records version 1 in
-- feedsim_schema. Never edit a shipped file: add 002_*.sql instead. The same tables and meaning
-- as Schema/001_initial.sql (SQLite); what is left out for the distributed engines is in
-- docs/postgres.md.

-- A named feed (e.g. "home", "photos"). Items belong to exactly one feed.
CREATE TABLE feeds (
    id   BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

-- One feed item. The feed order is published_at DESC, id DESC.
--   published_at: Unix milliseconds
--   kind:         the reuse identifier of the item's cell ("photo", "ad", "births", ...)
--   width/height: intrinsic size in points (>= 0)
--   payload:      JSON text, opaque to FeedSim (TEXT, not JSONB: kept byte for byte, as in SQLite)
CREATE TABLE items (
    id           BIGSERIAL PRIMARY KEY,
    feed_id      BIGINT           NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
    published_at BIGINT           NOT NULL,
    kind         TEXT             NOT NULL CHECK (length(kind) > 0),
    width        DOUBLE PRECISION NOT NULL CHECK (width >= 0),
    height       DOUBLE PRECISION NOT NULL CHECK (height >= 0),
    title        TEXT             NOT NULL DEFAULT '',
    author       TEXT             NOT NULL DEFAULT '',
    payload      TEXT             NOT NULL DEFAULT '{}'
);

-- Serves keyset pages in feed order: one seek on (feed_id, published_at, id), then a walk.
CREATE INDEX items_feed_order ON items (feed_id, published_at DESC, id DESC);
