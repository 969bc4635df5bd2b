"""The task's own Dockerfile, kept for ``sandbox=docker``: ``environment/Dockerfile``
(``environment.dockerfile`` in task.toml; its folder, ``environment/``, is the build context),
with each COPY/ADD source rewritten to where the importer put it (``repo/...`` for the
workspace, ``files/...`` for files copied elsewhere in the image). ``FROM`` names stay as the
release wrote them (``tb/make-pytest:v0``): ``sandbox.docker.image_dirs`` resolves them; the
programs the image chain installs become ``requires``."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from realcli.catalog.import_environment import Environment
from realcli.catalog.import_report import ImportReport
from realcli.catalog.import_requires import read_image_chain
from realcli.catalog.import_scripts import copy_arguments, dockerfile_instructions

__all__ = ["KeptImage", "keep_dockerfile"]


@dataclass
class KeptImage:
    dockerfile: str | None = None
    """Bundle-relative path of the kept Dockerfile (None: the source has none)."""
    requires: list[str] = field(default_factory=list)


def _rewrite_copies(text: str, context: Path, environment: Path, env: Environment) -> str:
    lines = text.splitlines()
    for ins in dockerfile_instructions(text):
        if ins.name not in ("COPY", "ADD") or ins.heredoc:
            continue
        raw = lines[ins.line - 1]
        if raw.rstrip().endswith("\\"):
            continue  # continued COPY lines: left as written (reported by the build)
        flags, sources, dest = copy_arguments(ins.args)
        if any(f.startswith("--from") for f in flags) or not sources:
            continue
        targets = env.copy_targets.get(ins.line)
        if targets is None:
            targets = []
            for src in sources:
                path = (context / src).resolve()
                if not path.is_relative_to(context.resolve()) or not path.exists():
                    break
                kept = environment / "files" / src
                kept.parent.mkdir(parents=True, exist_ok=True)
                if path.is_dir():
                    shutil.copytree(path, kept, dirs_exist_ok=True)
                else:
                    shutil.copy2(path, kept)
                targets.append(f"files/{src}")
            else:
                targets = targets or []
            if len(targets) != len(sources):
                continue
        indent = raw[: len(raw) - len(raw.lstrip())]
        words = [ins.name, *flags, *targets, dest]
        lines[ins.line - 1] = indent + " ".join(words)
    return "\n".join(lines) + "\n"


def keep_dockerfile(
    context: Path,
    bundle: Path,
    env: Environment,
    images_dir: Path | None,
    report: ImportReport,
    *,
    name: str = "Dockerfile",
) -> KeptImage:
    """Write ``bundle/environment/Dockerfile`` from ``context/<name>``; record the FROM
    chain (resolved in ``images_dir``) and the programs it installs."""
    source = context / name
    kept = KeptImage()
    if not source.is_file():
        return kept
    environment = bundle / "environment"
    environment.mkdir(parents=True, exist_ok=True)
    text = source.read_text(encoding="utf-8", errors="replace")
    (environment / "Dockerfile").write_text(
        _rewrite_copies(text, context, environment, env), encoding="utf-8"
    )
    kept.dockerfile = "environment/Dockerfile"
    shown = name if context == report.source else f"{context.name}/{name}"
    report.became(
        shown if context == report.source else f"{context.relative_to(report.source)}/{name}",
        "environment/Dockerfile (environment.dockerfile, for sandbox=docker; COPY sources"
        " point at environment/repo)",
    )
    chain = read_image_chain(source, images_dir)
    kept.requires = sorted(chain.programs)
    for image, base in chain.bases:
        if image.startswith("realcli-base:"):
            report.notes.append(f"`FROM {image}`: realcli's own Debian base image")
        elif base is not None:
            report.notes.append(
                f"`FROM {image}` is built from `{base}`: run with `sandbox=docker"
                f" sandbox.docker.image_dirs=[{base.parent}]`"
            )
        elif images_dir is not None:
            report.notes.append(
                f"`FROM {image}`: no Dockerfile in `{images_dir}` defines it; sandbox=docker"
                " pulls nothing, so it must be built here under that name first"
            )
        else:
            report.notes.append(
                f"`FROM {image}`: pass `--images DIR` (the release's base Dockerfiles, e.g."
                " `longcli_dockerImage/`) to resolve it and read what it installs; sandbox=docker"
                " then needs `sandbox.docker.image_dirs=[DIR]`"
            )
    if chain.programs:
        listed = ", ".join(f"`{p}` ({w})" for p, w in sorted(chain.programs.items()))
        report.notes.append(f"`requires` (checked by preflight before a run): {listed}")
    if chain.packages_without_program:
        report.metadata["packages without a program"] = ", ".join(chain.packages_without_program)
    if re.search(r"^\s*FROM\s+\S+\s+AS\s", text, re.M | re.I):
        report.notes.append("a multi-stage Dockerfile: sandbox=docker builds every stage")
    return kept
