// Tests for FeedStore.
