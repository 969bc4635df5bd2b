"""Deliverables of weave-des-brand-refresh: site/tokens.css, site/components.css,
site/logo.svg, out/contrast.json and the preview screenshot out/preview.png."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from realcli_testkit import read_png

WS = Path.cwd()
SITE = WS / "site"
OUT = WS / "out"

BRAND = {
    "primary": "#0A6E5C",
    "primary-dark": "#064A3E",
    "accent": "#F2B53A",
    "surface": "#FBF7EF",
    "ink": "#1E2430",
    "muted": "#8A8F98",
}
OLD = ["#1F6FEB", "#1553B8", "#FF7A1A", "#F6F8FA", "#111827", "#9CA3AF"]
CONTRAST = {
    "ink/surface": (14.55, True),
    "muted/surface": (3.04, False),
    "primary/surface": (5.78, True),
    "on-primary/primary": (6.18, True),
    "on-accent/accent": (8.48, True),
}


def _strip(css: str) -> str:
    return re.sub(r"/\*.*?\*/", "", css, flags=re.S)


def _vars() -> dict[str, str]:
    css = _strip((SITE / "tokens.css").read_text())
    return {k: v.strip() for k, v in re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", css)}


def _hex(value: str) -> str | None:
    value = value.strip()
    if value.lower() == "white":
        return "#FFFFFF"
    m = re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", value)
    if not m:
        return None
    h = m.group(1)
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return "#" + h.upper()


def _resolve(value: str, env: dict[str, str], depth: int = 0) -> str | None:
    m = re.fullmatch(r"var\(\s*(--[\w-]+)\s*(?:,\s*(.+))?\)", value.strip())
    if m and depth < 8:
        if m.group(1) in env:
            return _resolve(env[m.group(1)], env, depth + 1)
        return _resolve(m.group(2) or "", env, depth + 1)
    return _hex(value)


def _rules() -> dict[str, dict[str, str]]:
    rules: dict[str, dict[str, str]] = {}
    for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", _strip((SITE / "components.css").read_text())):
        decls = rules.setdefault(" ".join(sel.split()), {})
        for decl in body.split(";"):
            if ":" in decl:
                k, v = decl.split(":", 1)
                decls[k.strip()] = v.strip()
    return rules


def test_tokens_match_brand():
    env = _vars()
    for name, value in BRAND.items():
        tok = f"--color-{name}"
        assert tok in env, f"{tok} missing from tokens.css"
        assert _resolve(env[tok], env) == value, f"{tok} = {env[tok]}, brand says {value}"


def test_on_colours_by_contrast():
    env = _vars()
    assert _resolve(env.get("--color-on-primary", ""), env) == "#FFFFFF"
    assert _resolve(env.get("--color-on-accent", ""), env) == BRAND["ink"]


def test_no_2021_colours_left():
    for path in sorted(SITE.rglob("*")):
        if path.suffix in (".css", ".svg", ".html"):
            text = path.read_text().upper()
            for old in OLD:
                assert old not in text, f"{path.name} still contains {old}"


def test_components_use_token_references():
    rules = _rules()
    env = _vars()
    checks = [
        (".site-header a:hover", "background", "primary-dark"),
        (".btn-primary", "border", "accent"),
        (".card", "border-top", "primary"),
    ]
    for sel, prop, token in checks:
        value = rules.get(sel, {}).get(prop, "")
        assert f"var(--color-{token})" in value.replace(" ", ""), f"{sel} {prop}: {value!r}"
        colour = value.split()[-1] if prop != "background" else value
        assert _resolve(colour, env) == BRAND[token]
    text = _strip((SITE / "components.css").read_text())
    hexes = {h.upper() for h in re.findall(r"#[0-9a-fA-F]{3,6}\b", text)}
    assert hexes <= {"#FFFFFF", "#FFF"}, f"hard-coded colours left: {sorted(hexes)}"


def _fill(el: ET.Element) -> str | None:
    m = re.search(r"fill\s*:\s*([^;]+)", el.get("style", ""))
    return _hex(m.group(1) if m else el.get("fill", ""))


def test_logo_recoloured():
    root = ET.parse(SITE / "logo.svg").getroot()
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    expected = {"ring": "primary", "hole": "surface", "bar": "primary-dark", "dot": "accent"}
    for el_id, token in expected.items():
        assert el_id in by_id, f"#{el_id} missing from logo.svg"
        assert _fill(by_id[el_id]) == BRAND[token], f"#{el_id}: fill should be {BRAND[token]}"


def test_contrast_report():
    path = OUT / "contrast.json"
    assert path.is_file(), "out/contrast.json is missing"
    data = json.loads(path.read_text())
    assert set(CONTRAST) <= set(data), sorted(data)
    for key, (ratio, ok) in CONTRAST.items():
        assert abs(float(data[key]["ratio"]) - ratio) <= 0.011, (key, data[key])
        assert data[key]["pass_aa"] is ok, (key, data[key])


# ---------------------------------------------------------------- PNG (stdlib only)
def _png_pixels(path: Path) -> tuple[int, int, list[tuple[int, int, int]]]:
    img = read_png(path)  # realcli's shared test helpers (docs/weave.md)
    return img.width, img.height, list(img.pixels())


def _h(c: str) -> tuple[int, int, int]:
    return (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16))


def test_preview_screenshot():
    path = OUT / "preview.png"
    assert path.is_file(), "out/preview.png is missing"
    width, height, pixels = _png_pixels(path)
    assert width >= 640 and height >= 480, (width, height)
    counts: dict[tuple[int, int, int], int] = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    assert counts.get(_h("#0A6E5C"), 0) >= 20000, "no rebranded (2025 primary) header in the screenshot"
    assert counts.get(_h("#1F6FEB"), 0) < 200, "the screenshot still shows the 2021 primary colour"
    assert counts.get(_h("#FF7A1A"), 0) < 200, "the screenshot still shows the 2021 accent colour"
    assert counts.get(_h("#1B873F"), 0) >= 5000, "Brand Inspector's audit is not shown passing"
    assert counts.get(_h("#C62828"), 0) < 500, "Brand Inspector's audit is shown failing"
