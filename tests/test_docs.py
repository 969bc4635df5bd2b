"""The documentation covers what the code ships: a new command, config group, option file,
RunSpec key, ledger event kind or figure fails here until it is documented."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from analysis.figures import all_figures
from realcli.cli import COMMANDS
from realcli.schema.events import Event
from realcli.schema.run_spec import CONFIG_GROUPS, RunSpec

REPO = Path(__file__).resolve().parents[1]
CONF = REPO / "conf"
DOCS = REPO / "docs"
README = REPO / "README.md"
CLI_DOC = DOCS / "cli.md"
CONFIG_DOC = DOCS / "config.md"
LEDGER_DOC = DOCS / "ledger.md"
PER_MACHINE_GROUPS = ("local",)  # conf/local/*.yaml is git-ignored: per-machine, not shipped
GENERATED_DOCS = ("benchmarks.md",)  # written by `make bench`; may be absent in a fresh clone


def _text(path: Path) -> str:
    assert path.is_file(), f"{path.relative_to(REPO)} is missing"
    return path.read_text(encoding="utf-8")


def _section(doc: str, heading: str) -> str:
    """The body of the ``## <heading>`` section (up to the next level-2 heading), or ""."""
    match = re.search(rf"^## {re.escape(heading)}[^\n]*\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    return match.group(1) if match else ""


def _submodels() -> dict[str, type[BaseModel]]:
    """RunSpec field name -> its pydantic sub-model (one per config group)."""
    found = {}
    for name, field in RunSpec.model_fields.items():
        ann = field.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            found[name] = ann
    return found


def _event_kinds() -> list[str]:
    union = typing.get_args(Event)[0]  # Annotated[Union[...], Field(discriminator="kind")]
    return [member.model_fields["kind"].default for member in typing.get_args(union)]


def _option_files() -> list[tuple[str, str]]:
    return sorted(
        (path.parent.name, path.stem)
        for path in CONF.glob("*/*.yaml")
        if path.parent.name not in PER_MACHINE_GROUPS
    )


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_is_documented(command: str) -> None:
    for doc in (README, CLI_DOC):
        assert f"realcli {command}" in _text(doc), (
            f"`realcli {command}` (realcli.cli.COMMANDS) is not documented in "
            f"{doc.relative_to(REPO)}"
        )


def test_every_config_group_is_documented() -> None:
    doc = _text(CONFIG_DOC)
    groups = sorted(p.name for p in CONF.iterdir() if p.is_dir() and p.name[0] not in "._")
    no_folder = sorted(set(CONFIG_GROUPS) - set(groups))
    assert not no_folder, f"CONFIG_GROUPS without a conf/<group>/ folder: {no_folder}"
    missing = [g for g in groups if not re.search(rf"^## `{g}`", doc, re.M)]
    assert not missing, f"config groups with no '## `<group>`' section in docs/config.md: {missing}"


def test_every_option_file_is_documented() -> None:
    doc = _text(CONFIG_DOC)
    missing = [f"conf/{g}/{o}.yaml" for g, o in _option_files() if f"conf/{g}/{o}.yaml" not in doc]
    assert not missing, f"option files not named in docs/config.md: {missing}"


def _documented_keys(section: str) -> set[str]:
    """Backticked names in the first cell of the section's table rows."""
    first_cells = re.findall(r"^\|([^|\n]*)\|", section, re.M)
    return {name for cell in first_cells for name in re.findall(r"`([^`]+)`", cell)}


def test_every_runspec_key_is_documented() -> None:
    doc = _text(CONFIG_DOC)
    top = _documented_keys(_section(doc, "Top-level keys"))
    missing = [f"{k} (## Top-level keys)" for k in RunSpec.model_fields if k not in top]
    for group, model in _submodels().items():
        keys = _documented_keys(_section(doc, f"`{group}`"))
        missing += [
            f"{group}.{k} (## `{group}` table)" for k in model.model_fields if k not in keys
        ]
    assert not missing, f"RunSpec keys missing from their section of docs/config.md: {missing}"


def test_every_ledger_event_kind_is_documented() -> None:
    doc = _text(LEDGER_DOC)
    kinds = _event_kinds()
    assert "header" in kinds and "run_end" in kinds, kinds  # the union was read correctly
    missing = [k for k in kinds if f"**`{k}`**" not in doc]
    assert not missing, f"ledger event kinds with no **`kind`** entry in docs/ledger.md: {missing}"


def test_every_figure_is_documented() -> None:
    texts = _text(README) + "".join(_text(p) for p in sorted(DOCS.glob("*.md")))
    missing = [f.NAME for f in all_figures() if f"`{f.NAME}`" not in texts]
    assert not missing, f"registered figures not named in README/docs: {missing}"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_relative_links_resolve() -> None:
    broken = []
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", _text(page)):
            if re.match(r"[a-z]+://", target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = (page.parent / file_part).resolve() if file_part else page
            if dest.name in GENERATED_DOCS and dest.parent == DOCS:
                continue
            if not dest.is_file():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
                continue
            if anchor:
                headings = re.findall(r"^#+ (.+)$", dest.read_text(encoding="utf-8"), re.M)
                if anchor not in {_slug(h) for h in headings}:
                    broken.append(f"{page.relative_to(REPO)}: {target} (no such heading)")
    assert not broken, f"broken links: {broken}"
