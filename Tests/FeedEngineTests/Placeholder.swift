// Tests for FeedEngine.
