// Tests for FeedLayout.
