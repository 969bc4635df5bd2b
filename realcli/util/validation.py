"""Turn pydantic validation errors into one-line, fixable messages."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ValidationError

__all__ = ["describe_validation_error", "did_you_mean"]


def did_you_mean(name: str, allowed: list[str]) -> str:
    """``"did you mean 'x'? "`` for the closest allowed name, or ``""``."""
    close = difflib.get_close_matches(name, allowed, n=1)
    return f"did you mean {close[0]!r}? " if close else ""


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The pydantic model that owns the field at ``loc`` (for listing allowed keys)."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None or not isinstance(part, str) or part not in current.model_fields:
            break
        ann = current.model_fields[part].annotation
        args = getattr(ann, "__args__", ()) or (ann,)
        current = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), None)
    return current


def describe_validation_error(
    exc: ValidationError, model: type[BaseModel], prefix: str = ""
) -> tuple[str, str, str]:
    """(field, problem, fix) for the first error in ``exc``."""
    errors = exc.errors()
    # A typo shows up twice (unknown key + missing key): the unknown key explains both.
    err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = tuple(err["loc"])
    field = prefix + ".".join(str(p) for p in loc)
    kind = err["type"]
    if kind == "extra_forbidden":
        owner = _model_at(model, loc[:-1])
        allowed = sorted(owner.model_fields) if owner else []
        hint = did_you_mean(str(loc[-1]), allowed)
        return field, "unknown key", f"{hint}allowed keys: {', '.join(allowed)}"
    if kind == "missing":
        return field, "required key is missing", f"add {loc[-1]!r}"
    if kind == "union_tag_invalid":
        ctx = err.get("ctx", {})
        tag_field = prefix + str(ctx.get("discriminator", "")).strip("'")
        return tag_field, f"bad value {ctx.get('tag')!r}", f"use one of {ctx.get('expected_tags')}"
    if kind == "union_tag_not_found":
        tag_field = prefix + str(err.get("ctx", {}).get("discriminator", "")).strip("'")
        return tag_field, "required key is missing", f"add {tag_field!r}"
    if kind in ("enum", "literal_error"):
        expected = err.get("ctx", {}).get("expected", "")
        return field, f"bad value {err.get('input')!r}", f"use one of {expected}"
    ctx = err.get("ctx", {})
    if isinstance(ctx.get("fix"), str):  # our own validators say how to fix it
        return field, err["msg"], ctx["fix"]
    msg = err["msg"]
    if kind in _BOUND_ERRORS:
        return field, f"{msg} (got {err.get('input')!r})", _bounds_fix(model, loc)
    return field, f"{msg} (got {err.get('input')!r})", "correct the value"


_BOUND_ERRORS = frozenset(
    {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number"}
)


def _bounds_fix(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    """``use a number from LO to HI`` from the field's ``Field(ge=.., le=..)`` metadata."""
    owner = _model_at(model, loc[:-1])
    info = owner.model_fields.get(str(loc[-1])) if owner else None
    lo = hi = None
    for meta in info.metadata if info else ():
        lo = next(
            (getattr(meta, a) for a in ("ge", "gt") if getattr(meta, a, None) is not None), lo
        )
        hi = next(
            (getattr(meta, a) for a in ("le", "lt") if getattr(meta, a, None) is not None), hi
        )
    if lo is not None and hi is not None:
        return f"use a number from {lo} to {hi}"
    if lo is not None:
        return f"use a number of at least {lo}"
    if hi is not None:
        return f"use a number of at most {hi}"
    return "use a finite number"
