// Tests for FeedReplay.
