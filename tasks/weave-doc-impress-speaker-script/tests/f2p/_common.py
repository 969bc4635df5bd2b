"""Expected values for the weave-doc-impress-speaker-script tests (hidden from the agent)."""

from __future__ import annotations

from pathlib import Path

WS = Path.cwd()
# The deck open in Impress: title, background, hidden, speaker notes paragraphs.
SLIDES = [
    ("Q4 review", (0x1E, 0x88, 0xE5), False, ["Welcome everyone; thank the regional leads."]),
    (
        "Revenue by region",
        (0x43, 0xA0, 0x47),
        False,
        [
            "EMEA grew 12%, APAC 9%; North America was flat.",
            "Mention the FX effect: about 2 points.",
        ],
    ),
    ("Backup: raw data", (0x8E, 0x24, 0xAA), True, ["Only if asked: the per-country table."]),
    ("Churn", (0xFB, 0x8C, 0x00), False, ['Churn fell to 3.1% after the "save" offer.']),
    (
        "Next steps",
        (0xE5, 0x39, 0x35),
        False,
        ["Ask for the Q1 hiring decision by Friday.", "Thank the team."],
    ),
]


def expected_script() -> str:
    lines = ["# Q4 review: speaker script", ""]
    shown = [s for s in SLIDES if not s[2]]
    for k, (title, _, _, notes) in enumerate(shown, 1):
        lines += [f"## {k}. {title}", ""]
        for para in notes:
            lines += [para, ""]
    return "\n".join(lines).rstrip("\n") + "\n"
