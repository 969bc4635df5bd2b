"""Apply the Fernway 2025 palette (hex values copied from Brand Inspector into brand/*.txt).

python3 work/rebrand.py tokens    -> site/tokens.css colour tokens + on-colours, out/contrast.json
python3 work/rebrand.py literals  -> hard-coded 2021 colours in components.css / logo.svg
"""

import json
import re
import sys
from pathlib import Path

TOKENS = ["primary", "primary-dark", "accent", "surface", "ink", "muted"]
WHITE = "#FFFFFF"
OLD_MAP = Path("work/old_palette.json")


def norm(h):
    h = h.strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if not re.fullmatch(r"[0-9a-fA-F]{6}", h):
        raise SystemExit(f"not a hex colour: {h!r}")
    return "#" + h.upper()


def luminance(h):
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(h[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def brand():
    return {t: norm(Path("brand", f"{t}.txt").read_text()) for t in TOKENS}


def set_token(css, token, value):
    pat = re.compile(rf"(--color-{re.escape(token)}\s*:\s*)[^;]+;")
    assert len(pat.findall(css)) == 1, token
    return pat.sub(lambda m: m.group(1) + value + ";", css)


def tokens():
    new = brand()
    css = Path("site/tokens.css").read_text()
    old = {}
    for t in TOKENS:
        m = re.search(rf"--color-{re.escape(t)}\s*:\s*(#[0-9a-fA-F]{{3,6}})\s*;", css)
        old[t] = norm(m.group(1))
    OLD_MAP.write_text(json.dumps(old, indent=2))
    for t in TOKENS:
        css = set_token(css, t, new[t])
    on = {}
    for bg in ("primary", "accent"):
        on[bg] = max((WHITE, new["ink"]), key=lambda fg: contrast(fg, new[bg]))
        value = "var(--color-ink)" if on[bg] == new["ink"] else WHITE
        css = set_token(css, f"on-{bg}", value)
    css = css.replace("Colour tokens still carry the 2021 palette; the 2025 brand guidelines replace it.",
                      "Colour tokens: Fernway 2025 palette (Brand Inspector).")
    Path("site/tokens.css").write_text(css)
    pairs = {
        "ink/surface": (new["ink"], new["surface"]),
        "muted/surface": (new["muted"], new["surface"]),
        "primary/surface": (new["primary"], new["surface"]),
        "on-primary/primary": (on["primary"], new["primary"]),
        "on-accent/accent": (on["accent"], new["accent"]),
    }
    report = {}
    for key, (fg, bg) in pairs.items():
        ratio = round(contrast(fg, bg), 2)
        report[key] = {"ratio": ratio, "pass_aa": ratio >= 4.5}
    Path("out").mkdir(exist_ok=True)
    Path("out/contrast.json").write_text(json.dumps(report, indent=2) + "\n")
    print(Path("site/tokens.css").read_text())
    print(json.dumps(report, indent=2))


def literals():
    new = brand()
    old = json.loads(OLD_MAP.read_text())

    def swap(text, repl):
        for t, h in old.items():
            text = re.sub(rf"{re.escape(h)}\b", repl(t), text, flags=re.I)
        return text

    comp = Path("site/components.css")
    comp.write_text(swap(comp.read_text(), lambda t: f"var(--color-{t})"))
    logo = Path("site/logo.svg")
    logo.write_text(swap(logo.read_text(), lambda t: new[t]))
    print(comp.read_text())
    print(logo.read_text())


if __name__ == "__main__":
    {"tokens": tokens, "literals": literals}[sys.argv[1]]()
