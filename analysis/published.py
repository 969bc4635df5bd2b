"""The papers' published numbers (``../shared/SPEC.md``), for reference rows beside ours.

Every row a figure shows from here carries ``source = PAPER_WEAVE`` or ``PAPER_LONGCLI`` (ours
carry ``source = "realcli"``), so a reader never takes a paper's number for a measurement.
Percentages are in points, as the papers print them.
"""

from __future__ import annotations

__all__ = [
    "COVERAGE",
    "CROSS_HARNESS",
    "FAILURE_FAMILIES",
    "FAILURE_FINGERPRINTS",
    "FAILURE_SUBCLASSES",
    "INTERFACE_ABLATION",
    "JUDGE_ABLATION",
    "LONGCLI_MAIN",
    "OURS",
    "PAPER_LONGCLI",
    "PAPER_WEAVE",
    "TOOL_CALLS",
    "TRAJECTORY_PROFILE",
    "WEAVE_LEADERBOARD",
]

OURS = "realcli"
PAPER_WEAVE = "WeaveBench (paper)"
PAPER_LONGCLI = "LongCLI-Bench (paper)"

WEAVE_LEADERBOARD: tuple[dict[str, object], ...] = (
    {"model": "Claude Opus 4.7", "harness": "openclaw", "pass_rate_pct": 35.1},
    {"model": "GPT-5.5", "harness": "openclaw", "pass_rate_pct": 33.3},
    {"model": "GPT-5.4", "harness": "openclaw", "pass_rate_pct": 22.8},
    {"model": "GPT-5.1-codex", "harness": "openclaw", "pass_rate_pct": 1.8},
)
"""WeaveBench's model sweep on the fixed OpenClaw harness: PassRate (%)."""

CROSS_HARNESS: tuple[dict[str, object], ...] = (
    {"model": "Claude Opus 4.7", "harness": "claude_code", "pass_rate_pct": 41.2},
    {"model": "Claude Opus 4.7", "harness": "openclaw", "pass_rate_pct": 35.1},
    {"model": "Claude Opus 4.7", "harness": "hermes", "pass_rate_pct": 28.1},
    {"model": "Claude Opus 4.7", "harness": "codex", "pass_rate_pct": 13.2},
    {"model": "GPT-5.5", "harness": "codex", "pass_rate_pct": 35.1},
    {"model": "GPT-5.5", "harness": "openclaw", "pass_rate_pct": 33.3},
    {"model": "GPT-5.5", "harness": "hermes", "pass_rate_pct": 31.6},
    {"model": "GPT-5.5", "harness": "claude_code", "pass_rate_pct": 14.9},
)
"""WeaveBench's cross-harness PassRate (%), two backbones × four deployed runtimes."""

INTERFACE_ABLATION: dict[str, float] = {
    "gui_only_max_pct": 1.8,
    "cli_only_max_pct": 3.5,
    "hybrid_gain_pp": 31.6,
    "mcpworld_gain_pp": 4.5,
    "osworld_mcp_gain_pp": 3.2,
}
"""Interface ablation: upper bounds of single-channel PassRate and the hybrid gain (points)."""

JUDGE_ABLATION: dict[str, object] = {
    "inflation_min_pp": 10.3,
    "inflation_max_pp": 20.2,
    "rows": ({"model": "GPT-5.5", "outcome_only_pct": 53.5, "trajectory_pct": 33.3},),
}
"""Judge ablation: trajectory-aware judging removes 10.3–20.2 PR points on four GPT backbones."""

TRAJECTORY_PROFILE: dict[str, float] = {
    "median_tool_calls": 76,
    "mean_tool_calls": 88,
    "min_tool_calls": 14,
    "max_tool_calls": 471,
    "median_switches": 16,
    "boundary_share_pct": 23.0,
    "median_apps_states": 15,
    "min_apps_states": 4,
    "max_apps_states": 24,
}
"""Best hybrid rollout per task (appendix A.2)."""

TOOL_CALLS: dict[str, object] = {
    "model": "GPT-5.5",
    "n_calls": 10873,
    "top10_share_pct": 93.1,
    "exec_shell_share_pct": 27.3,
    "gui_share_tool_level_pct": 33.9,
    "gui_share_atomic_level_pct": 62.9,
}
"""Tool-call distribution and re-attribution (GPT-5.5 rollouts)."""

COVERAGE: dict[str, float] = {
    "n_tasks": 114,
    "any_side_pct": 100.0,
    "non_universal_pct": 90.4,
    "mean_cli_atoms": 2.24,
    "mean_gui_atoms": 1.80,
    "p2_pct": round(113 / 114 * 100, 1),
    "p3_pct": 100.0,
}
"""P1 atom coverage (Table A2; depth is not quoted in the text) and the P2/P3 shares of tasks
(appendix A.2: 113 of 114 tasks exceed 20 calls; all 114 switch between at least 3 apps)."""

FAILURE_FAMILIES: dict[str, float] = {"E5": 35.2, "E4": 30.4, "E3": 4.0}
"""Share of 1,735 failures (2,209 trials) per family (E3: an upper bound, '< 4%')."""

FAILURE_SUBCLASSES: dict[str, float] = {"E4.2": 18.0, "E5.1": 17.6, "E1.3": 16.9}
"""The three largest sub-classes, share of failures."""

FAILURE_FINGERPRINTS: tuple[dict[str, object], ...] = (
    {"model": "GPT-5.5", "family": "E5", "share_pct": 46.0},
    {"model": "GPT-5.4", "family": "E4", "share_pct": 44.0},
    {"model": "Claude Opus 4.7", "family": "E5", "share_pct": 30.0},
    {"model": "Claude Opus 4.7", "family": "E4", "share_pct": 30.0},
    {"model": "Claude Opus 4.7", "family": "E1", "share_pct": 30.0},
)
"""Per-model failure fingerprints quoted in the text (Opus 4.7: '≈ 30% each of E5, E4, E1')."""

LONGCLI_MAIN: tuple[dict[str, object], ...] = (
    {
        "model": "Claude-Opus-4.6",
        "harness": "claude_code",
        "pass_pct": 16.7,
        "pass_at_k_pct": 25.0,
        "f2p_step_pct": 50.7,
        "p2p_pass_pct": 78.3,
    },
    {
        "model": "GPT-5.3-Codex",
        "harness": "codex",
        "pass_pct": 15.0,
        "f2p_step_pct": 44.1,
        "p2p_pass_pct": 86.7,
    },
    {"model": "Qwen3-235B-A22B", "harness": "openhands", "pass_pct": 6.7, "f2p_step_pct": 28.9},
    {
        "model": "DeepSeek-V3.1",
        "harness": "openhands",
        "pass_pct": 5.0,
        "f2p_step_pct": 25.3,
        "p2p_pass_pct": 88.3,
    },
)
"""LongCLI-Bench's main table (Pass, Pass@3, F2P step, P2P pass; %)."""
