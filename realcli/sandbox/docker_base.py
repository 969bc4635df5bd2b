"""realcli's Docker base image, built here from Debian packages (nothing is ever pulled).

``debootstrap --variant=minbase`` writes a Debian root filesystem with the packages in
:data:`BASE_PACKAGES`; ``docker import`` turns it into an image tagged ``name`` (default
:data:`BASE_TAG`, ``realcli-base:bookworm-r2``) and labelled with the digest of what made it
(suite, mirror, packages, this module's recipe version). An image of that tag and digest is
reused; one with an older digest is rebuilt. A host-wide file lock keeps two processes from
building it at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from realcli.sandbox.base import SandboxError

__all__ = [
    "BASE_PACKAGES",
    "BASE_TAG",
    "DIGEST_LABEL",
    "base_digest",
    "ensure_base_image",
    "image_label",
]

SUITE = "bookworm"
MIRROR = os.environ.get("REALCLI_DEBIAN_MIRROR", "http://deb.debian.org/debian")
BASE_PACKAGES = (
    "python3",  # the builtin agent runs with the system Python (/usr/bin/python3)
    "git",
    "make",
    "patch",
    "procps",
    "ca-certificates",
    "python3-tk",  # the GUI apps of hybrid tasks (Tk on the run's display)
    "fonts-dejavu-core",  # fontconfig's default sans/mono: the same glyphs as on the host
    "xclip",  # the agent's copy/paste on the run's display (hybrid tasks read codes this way)
    "xdotool",
)
"""On top of minbase: what the builtin agent, SWE-bench style tasks and the tests use."""
RECIPE = 2
"""Bump when the way the image is made (or :data:`BASE_PACKAGES`) changes: the digest and
the default tag change with it, so realcli versions of different recipes on one host (two
checkouts, a node mid-upgrade) each keep their own image instead of rebuilding one tag in turn."""
BASE_TAG = f"realcli-base:{SUITE}-r{RECIPE}"
DIGEST_LABEL = "io.realcli.digest"
_LOCK_DIR = Path(os.environ.get("REALCLI_DOCKER_LOCKS", "/var/tmp/realcli-docker-locks"))
_TIMEOUT_S = 1800.0


def base_digest(suite: str = SUITE, mirror: str = MIRROR) -> str:
    """The digest of what the base image is made from (its label)."""
    recipe = {"suite": suite, "mirror": mirror, "packages": BASE_PACKAGES, "recipe": RECIPE}
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()


def _docker(*args: str, stdin: int | None = None, timeout: float = 120.0) -> str:
    try:
        done = subprocess.run(
            ["docker", *args],
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        raise SandboxError(
            "the docker CLI is not installed (fix: apt-get install docker.io, then "
            "bash scripts/dockerd.sh)"
        ) from exc
    except subprocess.TimeoutExpired as exc:
        raise SandboxError(f"docker {' '.join(args[:2])} timed out after {timeout:g}s") from exc
    if done.returncode != 0:
        raise SandboxError(
            f"docker {' '.join(args[:2])} failed: {done.stderr.strip()[-800:]} (fix: is dockerd "
            "running? bash scripts/dockerd.sh starts it)"
        )
    return done.stdout


def image_label(name: str, label: str = DIGEST_LABEL) -> str | None:
    """The value of ``label`` on local image ``name``; None when there is no such image."""
    try:
        out = _docker("image", "inspect", "--format", "{{json .Config.Labels}}", name)
    except SandboxError as exc:
        if "No such image" in str(exc) or "no such image" in str(exc).lower():
            return None
        raise
    labels = json.loads(out.strip() or "null") or {}
    value = labels.get(label)
    return str(value) if value is not None else ""


@contextlib.contextmanager
def _build_lock(name: str) -> Iterator[None]:
    _LOCK_DIR.mkdir(parents=True, exist_ok=True)
    path = _LOCK_DIR / (hashlib.sha256(name.encode()).hexdigest()[:16] + ".lock")
    with path.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def ensure_base_image(name: str = BASE_TAG) -> str:
    """The local base image ``name``, built from Debian packages if it is missing or stale.

    Raises:
        SandboxError: no docker or debootstrap, the daemon is down, or the build failed (the
            message names the step and ends with the fix).
    """
    digest = base_digest()
    if image_label(name) == digest:
        return name
    with _build_lock(name):
        if image_label(name) == digest:  # another process built it meanwhile
            return name
        if shutil.which("debootstrap") is None:
            raise SandboxError(
                "debootstrap is not installed, needed to build the base image "
                f"{name} (fix: apt-get install debootstrap)"
            )
        with tempfile.TemporaryDirectory(prefix="realcli-rootfs-", dir="/var/tmp") as tmp:
            root = Path(tmp) / "rootfs"
            cmd = [
                "debootstrap",
                "--variant=minbase",
                f"--include={','.join(BASE_PACKAGES)}",
                SUITE,
                str(root),
                MIRROR,
            ]
            done = subprocess.run(
                cmd, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False
            )
            if done.returncode != 0:
                tail = (done.stdout + done.stderr).strip()[-800:]
                raise SandboxError(
                    f"debootstrap of the base image {name} failed: {tail} (fix: check that "
                    f"{MIRROR} is reachable, or set REALCLI_DEBIAN_MIRROR)"
                )
            (root / "etc" / "realcli-base").write_text(digest + "\n", encoding="utf-8")
            tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
            try:
                _docker(
                    "import",
                    "--change",
                    f"LABEL {DIGEST_LABEL}={digest}",
                    "--change",
                    'CMD ["/bin/sh"]',
                    "-",
                    name,
                    stdin=tar.stdout.fileno() if tar.stdout else None,
                    timeout=_TIMEOUT_S,
                )
            finally:
                if tar.stdout:
                    tar.stdout.close()
                tar.wait()
    return name
