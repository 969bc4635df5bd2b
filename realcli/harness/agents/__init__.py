"""Agents that run INSIDE a sandbox: standalone, stdlib-only scripts (never import realcli)."""
