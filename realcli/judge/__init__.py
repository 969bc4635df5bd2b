"""The judge layer: run folder in, judgement out (``judgements/<judge>.json``).

Judges (``tests``, ``trajectory``, ``outcome_only``, ``agent``), clause checkers and cheat
detectors register in :mod:`realcli.judge.base`'s registries; a plugin package adds its own
through the ``realcli.judges``, ``realcli.checkers`` and ``realcli.detectors`` entry points.
"""

from realcli.judge.base import CHECKERS, DETECTORS, JUDGES, Checker, Detector, Judge, judge_key
from realcli.judge.context import BadImage, JudgeInputError, RunEvidence, ToolStep, load_run
from realcli.judge.store import (
    JUDGEMENTS_DIR,
    JudgeOutcome,
    judge_folder,
    make_judge,
    read_judgement,
    read_judgements,
    resolve_spec,
    write_judgement,
)

__all__ = [
    "CHECKERS",
    "DETECTORS",
    "JUDGEMENTS_DIR",
    "JUDGES",
    "BadImage",
    "Checker",
    "Detector",
    "Judge",
    "JudgeInputError",
    "JudgeOutcome",
    "RunEvidence",
    "ToolStep",
    "judge_folder",
    "judge_key",
    "load_run",
    "make_judge",
    "read_judgement",
    "read_judgements",
    "resolve_spec",
    "write_judgement",
]
