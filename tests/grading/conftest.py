"""The task bundles under ``fixtures/`` hold the tasks' own hidden tests (and their
repositories' tests): they are graded inside sandboxes, never collected here."""

collect_ignore = ["fixtures"]
