"""Leaf helpers: hashing, errors, secret redaction."""
