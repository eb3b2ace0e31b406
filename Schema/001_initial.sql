-- FeedSim item store, schema version 1.
-- Applied by FeedStore's migrator inside one BEGIN IMMEDIATE transaction; the migrator then sets
-- PRAGMA user_version = 1. Never edit a shipped file: add 002_*.sql instead.

-- A named feed (e.g. "home", "photos"). Items belong to exactly one feed.
CREATE TABLE feeds (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

-- One feed item. The feed order is published_at DESC, id DESC.
--   published_at: Unix milliseconds
--   kind:         the reuse identifier of the item's cell ("photo", "ad", "births", ...)
--   width/height: intrinsic size in points (>= 0)
--   payload:      JSON text, opaque to FeedSim
CREATE TABLE items (
    id           INTEGER PRIMARY KEY,
    feed_id      INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
    published_at INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (length(kind) > 0),
    width        REAL    NOT NULL CHECK (width >= 0),
    height       REAL    NOT NULL CHECK (height >= 0),
    title        TEXT    NOT NULL DEFAULT '',
    author       TEXT    NOT NULL DEFAULT '',
    payload      TEXT    NOT NULL DEFAULT '{}'
);

-- Serves keyset pages in feed order: one seek on (feed_id, published_at, id), then a walk.
CREATE INDEX items_feed_order ON items (feed_id, published_at DESC, id DESC);
