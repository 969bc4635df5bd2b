"""Read a JSONL file of generic actions (a reference trajectory or a scripted agent)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from realcli.schema.actions import Action, ActionAdapter, WriteAction
from realcli.util.errors import TaskError
from realcli.util.validation import describe_validation_error

__all__ = ["load_actions"]


def load_actions(path: Path, base_dir: Path) -> list[Action]:
    """Every action in ``path``, with each ``content_from`` (relative to ``base_dir``, and not
    allowed to leave it) inlined as ``content``. Raises :class:`TaskError` naming the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TaskError(str(path), None, f"cannot read ({exc.strerror})", "check the path") from exc
    actions: list[Action] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            action = ActionAdapter.validate_python(json.loads(line))
        except json.JSONDecodeError as exc:
            raise TaskError(
                where, None, f"not JSON ({exc.msg})", "one JSON object per line"
            ) from exc
        except ValidationError as exc:
            field, problem, fix = describe_validation_error(exc, WriteAction)
            raise TaskError(
                where, field, problem, f"{fix}; actions are defined in realcli/schema/actions.py"
            ) from exc
        if isinstance(action, WriteAction) and action.content_from is not None:
            source = (base_dir / action.content_from).resolve()
            if not source.is_relative_to(base_dir.resolve()) or not source.is_file():
                raise TaskError(
                    where,
                    "content_from",
                    f"{action.content_from!r} is not a file under {base_dir}",
                    f"point it at a file inside {base_dir}",
                )
            content = source.read_text(encoding="utf-8")
            action = action.model_copy(update={"content": content, "content_from": None})
        actions.append(action)
    return actions
