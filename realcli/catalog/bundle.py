"""TaskBundle: one validated task folder.

Layout: task.toml, instruction.md, environment/ (repo/ and an optional setup.sh), tests/f2p/,
tests/p2p/ and solution/ (trajectory.jsonl plus the files it writes).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pydantic import ValidationError

from realcli.catalog.confine import check_confined
from realcli.catalog.trajectory import load_actions
from realcli.schema.actions import Action
from realcli.schema.task_spec import TaskSpec
from realcli.util.errors import TaskError
from realcli.util.hashing import sha256_tree
from realcli.util.validation import describe_validation_error

__all__ = ["NO_REFERENCE", "TaskBundle", "harbor_task_error", "load_task"]

NO_REFERENCE = "NO_REFERENCE"
"""``solution/NO_REFERENCE``: why an imported task has no reference solution (its
solution.sh was empty; its trajectory.jsonl is empty). Replay and ``tasks check`` say so."""
_HARBOR_KEYS = {"verifier", "agent", "metadata", "task", "steps", "solution", "source"}
_HARBOR_ENVIRONMENT_KEYS = {"cpus", "memory_mb", "storage_mb", "memory", "storage", "docker_image"}


@dataclass(frozen=True)
class TaskBundle:
    root: Path
    spec: TaskSpec

    @property
    def id(self) -> str:
        return self.spec.id

    @cached_property
    def digest(self) -> str:
        """Content hash of the whole bundle: any change to it makes new run keys."""
        return sha256_tree(self.root)

    @property
    def repo_dir(self) -> Path:
        return self.root / "environment" / "repo"

    @property
    def setup_script(self) -> Path | None:
        path = self.root / "environment" / "setup.sh"
        return path if path.is_file() else None

    @property
    def tests_dir(self) -> Path:
        return self.root / "tests"

    @property
    def solution_dir(self) -> Path:
        return self.root / "solution"

    @property
    def trajectory_path(self) -> Path:
        return self.solution_dir / "trajectory.jsonl"

    @property
    def instruction(self) -> str:
        return (self.root / self.spec.instruction).read_text(encoding="utf-8")

    def test_files(self, test_set: str) -> list[Path]:
        return sorted((self.tests_dir / test_set).rglob("test_*.py"))

    @property
    def no_reference(self) -> str | None:
        """Why the task has no reference solution, or None. A task has none when its
        ``solution/trajectory.jsonl`` is empty (the reference gates are then skipped with a
        warning); an imported task says why in ``solution/NO_REFERENCE``."""
        path = self.trajectory_path
        if path.is_file() and path.read_text(encoding="utf-8", errors="replace").strip():
            return None
        marker = self.solution_dir / NO_REFERENCE
        if marker.is_file():
            return marker.read_text(encoding="utf-8", errors="replace").strip() or "no reference"
        return f"{path} is empty"

    def reference_actions(self) -> list[Action]:
        """The reference trajectory with every ``content_from`` inlined (empty: no reference)."""
        return load_actions(self.trajectory_path, self.solution_dir)

    def replay_reference(self) -> list[Action]:
        """The reference ``model=replay`` serves. A task without one is an error naming why,
        never a replay that answers "done" and fails every test."""
        why = self.no_reference
        if why is not None:
            raise TaskError(
                str(self.trajectory_path),
                None,
                f"no reference solution to replay: {why}",
                "write solution/trajectory.jsonl (docs/tasks.md, Actions) so the reference"
                f" passes (and delete solution/{NO_REFERENCE}), or run it with another model",
            )
        return self.reference_actions()


def _parse_toml(path: Path) -> dict[str, object]:
    if not path.is_file():
        problem = "is not a file" if path.exists() else "missing"
        raise TaskError(str(path), None, problem, "every task folder needs a task.toml file")
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(str(path), None, f"not valid TOML ({exc})", "fix the syntax") from exc
    except UnicodeDecodeError as exc:
        raise TaskError(
            str(path), None, f"not UTF-8 text (byte {exc.start})", "save it as UTF-8 TOML"
        ) from exc
    except OSError as exc:
        raise TaskError(str(path), None, f"cannot be read ({exc.strerror})", "check it") from exc


_KINDS = {"file": Path.is_file, "folder": Path.is_dir}


def _check_layout(root: Path, spec: TaskSpec) -> None:
    """Each part of the layout exists and is what it should be (a file or a folder)."""
    # a list, not a dict: an instruction that names another part (e.g. "tests") is still
    # checked as the file it must be
    required = [
        (spec.instruction, "file", "the instructions the agent sees"),
        ("environment/repo", "folder", "the initial state of the workspace"),
        ("tests", "folder", "the hidden tests"),
        ("solution/trajectory.jsonl", "file", "the reference trajectory"),
    ]
    sets = {"f2p": spec.tests.f2p, "p2p": spec.tests.p2p}
    for name, what in (("f2p", "fail-to-pass tests"), ("p2p", "pass-to-pass tests")):
        test_set = sets[name]
        if test_set is not None and test_set.bundle_pytest:  # the others name their files
            required.append((f"tests/{name}", "folder", what))
    for rel, kind, what in required:
        path = root / rel
        if not path.exists():
            raise TaskError(str(path), None, "missing", f"add {rel} ({what})")
        if not _KINDS[kind](path):
            raise TaskError(str(path), None, f"is not a {kind}", f"make {rel} a {kind} ({what})")
    setup = root / "environment" / "setup.sh"
    if setup.exists() and not setup.is_file():
        raise TaskError(str(setup), None, "is not a file", "make it a shell script or remove it")
    for rel in (spec.instruction, "environment/setup.sh"):
        path = root / rel
        if path.is_file():
            try:
                path.read_bytes().decode("utf-8")
            except UnicodeDecodeError as exc:
                raise TaskError(
                    str(path), None, f"not UTF-8 text (byte {exc.start})", "save it as UTF-8"
                ) from exc


def harbor_task_error(root: Path, raw: dict[str, object]) -> TaskError | None:
    """The error for a Harbor (Terminal-Bench 2) task folder found where a bundle should be."""
    environment = raw.get("environment")
    harbor = bool(_HARBOR_KEYS & raw.keys()) or "multi_step_reward_strategy" in raw
    if isinstance(environment, dict) and _HARBOR_ENVIRONMENT_KEYS & environment.keys():
        harbor = True
    if "id" not in raw and (root / "tests" / "test.sh").is_file():
        harbor = True
    if not harbor:
        return None
    return TaskError(
        str(root / "task.toml"),
        None,
        "this is a Harbor task: import it with `realcli tasks import harbor PATH`",
        f"realcli tasks import harbor {root} --out <tasks dir> (then check the imported bundle)",
    )


def load_task(root: Path) -> TaskBundle:
    """Load and validate ``root``; raises :class:`TaskError` naming the file, field and fix.

    Nothing in the bundle is read before it is known to hold no link leading out of it and
    no FIFO, socket or device (:func:`~realcli.catalog.confine.check_confined`)."""
    toml_path = root / "task.toml"
    if root.is_dir():
        check_confined(root)
    raw = _parse_toml(toml_path)
    harbor = harbor_task_error(root, raw)
    if harbor is not None:
        raise harbor
    try:
        spec = TaskSpec.model_validate(raw)
    except ValidationError as exc:
        field, problem, fix = describe_validation_error(exc, TaskSpec)
        raise TaskError(str(toml_path), field, problem, fix) from exc
    if spec.id != root.name:
        raise TaskError(
            str(toml_path),
            "id",
            f"{spec.id!r} differs from the folder name {root.name!r}",
            "make the id and the folder name the same",
        )
    bundle = TaskBundle(root=root, spec=spec)
    _check_layout(root, spec)
    for app in spec.gui.apps if spec.gui else ():
        for field, rel in (("files", app.files), ("profile", app.profile)):
            if rel is not None and not (root / "environment" / rel).is_dir():
                raise TaskError(
                    str(toml_path),
                    f"gui.apps.{app.name}.{field}",
                    f"environment/{rel} is not a folder",
                    f"name a folder under environment/ holding the app's {field}",
                )
    for sub in spec.substeps:
        for sel in sub.tests:
            file_part = sel.split("::", 1)[0]
            if not (bundle.tests_dir / file_part).is_file():
                raise TaskError(
                    str(toml_path),
                    f"substeps.{sub.id}.tests",
                    f"{sel!r} names no file under tests/",
                    "use a path relative to tests/, e.g. 'f2p/test_x.py::test_y'",
                )
    return bundle
