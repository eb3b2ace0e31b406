// FeedLoad: see ../../README.md (targets table). Filled in by its issue.
