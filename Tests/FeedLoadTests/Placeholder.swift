// Tests for FeedLoad.
