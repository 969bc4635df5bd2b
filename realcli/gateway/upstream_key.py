"""The ``upstream`` backend's API key: read once, from ``model.upstream.api_key_env`` or
``api_key_file``, checked to be one printable token; no message here ever contains it."""

from __future__ import annotations

import os
import re
from pathlib import Path

from realcli.schema.run_spec import UpstreamSpec
from realcli.util.errors import ConfigError

__all__ = ["load_api_key"]

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def load_api_key(spec: UpstreamSpec, model_name: str) -> str:
    """The API key of ``spec``: ``$api_key_env`` if set and not empty, else the first line
    of ``api_key_file`` (stripped).

    Raises:
        ConfigError: no key configured, the variable is unset/empty, the file is missing,
            unreadable or empty, or the key is not one printable token. The message names
            ``conf/model/<model_name>.yaml`` and the field, never the key.
    """
    where = f"conf/model/{model_name}.yaml"
    tried: list[str] = []
    if spec.api_key_env and not _ENV_NAME.match(spec.api_key_env):
        raise ConfigError(  # never echo the value: it may be the key itself, pasted here
            where,
            "model.upstream.api_key_env",
            "is not an environment variable name",
            "put the variable's name here (e.g. OPENAI_API_KEY), never the key itself",
        )
    if spec.api_key_env:
        key = os.environ.get(spec.api_key_env, "").strip()
        if key:
            return _checked(key, where, "model.upstream.api_key_env", f"${spec.api_key_env}")
        tried.append(f"environment variable {spec.api_key_env} is not set or empty")
    if spec.api_key_file:
        path = Path(spec.api_key_file).expanduser()
        try:
            lines = path.read_text(encoding="utf-8").strip().splitlines()
        except FileNotFoundError:
            tried.append(f"key file {path} does not exist")
        except (OSError, UnicodeDecodeError) as exc:
            tried.append(f"key file {path} cannot be read ({type(exc).__name__})")
        else:
            key = lines[0].strip() if lines else ""
            if key:
                return _checked(key, where, "model.upstream.api_key_file", f"file {path}")
            tried.append(f"key file {path} is empty")
    if not spec.api_key_env and not spec.api_key_file:
        tried.append("no API key is configured")
    only_file = spec.api_key_file and not spec.api_key_env
    field = "model.upstream.api_key_file" if only_file else "model.upstream.api_key_env"
    env = spec.api_key_env or "PROVIDER_API_KEY"
    raise ConfigError(
        where,
        field,
        "; ".join(tried),
        f"export {env}=<your key> (model.upstream.api_key_env names the variable), or set "
        "model.upstream.api_key_file=PATH to a file holding the key",
    )


def _checked(key: str, where: str, field: str, source: str) -> str:
    if any(not ch.isprintable() or ch.isspace() for ch in key):
        raise ConfigError(
            where,
            field,
            f"the API key in {source} contains whitespace or control characters",
            "store the key alone, on one line",
        )
    return key
