"""The record of one ``realcli tasks import``: every source file and what it became, every item
that could not be mapped (with what to do), and metadata realcli has no field for. Rendered as
the bundle's ``IMPORT_REPORT.md``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from realcli.util.errors import TaskError

__all__ = ["ImportReport", "Unmapped"]


@dataclass(frozen=True)
class Unmapped:
    source: str
    """Where it comes from: ``Dockerfile:7``, ``task.yaml: parser_name``, ``run-tests.sh:4``."""
    item: str
    why: str
    fix: str


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


@dataclass
class ImportReport:
    task_id: str
    source: Path
    form: str
    """``LongCLI-Bench`` or ``Terminal-Bench 1``."""
    outcomes: dict[str, list[str]] = field(default_factory=dict)
    """Source path (file or folder, relative to the task folder) -> what it became."""
    unmapped: list[Unmapped] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    fatal_errors: list[TaskError] = field(default_factory=list)
    """Problems that leave no gradable bundle: all of them are raised together, at the end."""
    command: str = "longcli"
    """The importer (``realcli tasks import <command>``)."""
    notes: list[str] = field(default_factory=list)
    """Lines for the report's *Running it* section (images, no reference, requires)."""

    def fatal(self, where: str, field: str | None, problem: str, fix: str) -> None:
        self.fatal_errors.append(TaskError(where, field, problem, fix))

    def raise_fatal(self) -> None:
        """One :class:`TaskError` naming every fatal problem found (file, field and fix each)."""
        if not self.fatal_errors:
            return
        if len(self.fatal_errors) == 1:
            raise self.fatal_errors[0]
        first = self.fatal_errors[0]
        problems = "; ".join(f"({i}) {e}" for i, e in enumerate(self.fatal_errors, start=1))
        raise TaskError(
            str(self.source),
            None,
            f"{len(self.fatal_errors)} problems: {problems}",
            f"fix each as it says (the first: {first.fix}), then import again",
        )

    def became(self, source: str, outcome: str) -> None:
        self.outcomes.setdefault(source, []).append(outcome)

    def cannot(self, source: str, item: str, why: str, fix: str) -> None:
        self.unmapped.append(Unmapped(source, item, why, fix))

    def covered(self, rel: str) -> bool:
        """Whether ``rel`` or a folder above it has an outcome."""
        parts = rel.split("/")
        keys = {"/".join(parts[:n]) for n in range(1, len(parts) + 1)} | {"."}
        return bool(keys & self.outcomes.keys())

    def file_rows(self) -> list[tuple[str, str]]:
        """One row per source path with an outcome, then every file nothing used."""
        rows: list[tuple[str, str]] = []
        for key in sorted(self.outcomes, key=lambda k: (k != ".", k)):
            path = self.source / key
            shown = f"{key}/" if path.is_dir() and key != "." else key
            if path.is_dir():
                count = sum(
                    1 for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                )
                shown += f" ({count} files)"
            rows.append((shown, "; ".join(self.outcomes[key])))
        for path in sorted(self.source.rglob("*")):
            rel = path.relative_to(self.source).as_posix()
            if path.is_file() and "__pycache__" not in path.parts and not self.covered(rel):
                rows.append((rel, "not used (no COPY, test or solution role)"))
        return rows

    def markdown(self, bundle: Path, check_command: str) -> str:
        lines = [
            f"# Import report: `{self.task_id}`",
            "",
            f"Imported by `realcli tasks import {self.command}` from `{self.source}`"
            f" ({self.form} form) into `{bundle}`.",
            "",
            f"- {len(self.unmapped)} item(s) could not be mapped: see *Not mapped* for what to do.",
            f"- Health-check the bundle: `{check_command}`",
            "",
        ]
        if self.notes:
            lines += ["## Running it", ""] + [f"- {n}" for n in self.notes] + [""]
        lines += [
            "## Source files",
            "",
            "| source | became |",
            "|---|---|",
        ]
        lines += [f"| `{_cell(s)}` | {_cell(b)} |" for s, b in self.file_rows()]
        lines += ["", "## Not mapped", ""]
        if self.unmapped:
            lines += ["| source | item | why | what to do |", "|---|---|---|---|"]
            lines += [
                f"| {_cell(u.source)} | {_cell(u.item)} | {_cell(u.why)} | {_cell(u.fix)} |"
                for u in self.unmapped
            ]
        else:
            lines.append("Nothing: every item of the source task has a realcli equivalent.")
        if self.metadata:
            lines += ["", "## Metadata kept only here", "", "| field | value |", "|---|---|"]
            lines += [f"| `{_cell(k)}` | {_cell(v)} |" for k, v in self.metadata.items()]
        return "\n".join(lines) + "\n"
