"""The image a ``sandbox=docker`` run of a task uses, built here from the task's own Dockerfile
(nothing is pulled; docs/images.md).

- No ``environment.dockerfile``: ``environment.image`` (a local image), else realcli's base
  image (:func:`~realcli.sandbox.docker_base.ensure_base_image`).
- A Dockerfile: every ``FROM`` is resolved to a local image first (:mod:`.images_plan`: a base
  Dockerfile that defines the name is built before it, recursively), then it is built with its
  folder as context, without network (``network_mode="none"``) and without pulling.

Images are cached by content digest (Dockerfile, build context after ``.dockerignore``, build
args, parents' digests): tagged ``realcli-task/<task-id>:<digest[:16]>`` (bases:
``realcli-image/<name>:<digest[:16]>``) and labelled with the full digest. A rerun with nothing
changed only inspects. A file lock per digest makes concurrent builders build once; each build's
log is kept in ``<cache>/images/logs/``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import io
import os
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import docker
import docker.errors
from docker.utils.build import tar
from dockerfile_parse import DockerfileParser

from realcli.sandbox.base import SandboxError
from realcli.sandbox.docker_base import DIGEST_LABEL, base_digest, ensure_base_image, image_label
from realcli.sandbox.images_plan import (
    SENT_DOCKERFILE,
    ImagePlan,
    dockerignore_patterns,
    plan_dockerfile,
)
from realcli.schema.run_spec import DockerSpec
from realcli.schema.task_spec import TaskSpec
from realcli.util.errors import TaskError

__all__ = [
    "KIND_LABEL",
    "NAME_LABEL",
    "PARENTS_LABEL",
    "TASKS_DIR_LABEL",
    "TASK_LABEL",
    "BuiltImage",
    "ImageBuildError",
    "TaskBundle",
    "build_task_image",
    "docker_client",
    "image_log_dir",
    "plan_task_image",
    "task_image",
]

TASK_LABEL = "io.realcli.task"
NAME_LABEL = "io.realcli.image"
KIND_LABEL = "io.realcli.kind"
TASKS_DIR_LABEL = "io.realcli.tasks-dir"
PARENTS_LABEL = "io.realcli.parents"
"""Space-separated tags of the images a build names in its FROM lines."""
_LOCK_DIR = Path(os.environ.get("REALCLI_DOCKER_LOCKS", "/var/tmp/realcli-docker-locks"))
_BUILD_TIMEOUT_S = 3600
_LOG_TAIL = 12
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
"""The classic builder colours a RUN's stderr; the error's log tail is plain text."""
_DAEMON_FIX = "is dockerd running? bash scripts/dockerd.sh starts it"


class TaskBundle(Protocol):
    """What images need of a :class:`realcli.catalog.bundle.TaskBundle` (the catalog is a
    sibling layer, so it is named structurally here)."""

    @property
    def root(self) -> Path: ...

    @property
    def id(self) -> str: ...

    @property
    def spec(self) -> TaskSpec: ...


class ImageBuildError(TaskError):
    """A build step failed: names the Dockerfile and line, the step and the log; ``details``
    holds the log's last lines (printed by the CLI under the error)."""

    def __init__(self, where: str, field: str | None, problem: str, fix: str, tail: list[str]):
        super().__init__(where, field, problem, fix)
        self.details = tail


@dataclass(frozen=True)
class BuiltImage:
    """One image of a task's chain, after :func:`build_task_image`."""

    kind: str
    """``task``, ``image`` (a base Dockerfile's), ``base`` (realcli's) or ``local``."""
    name: str
    tag: str
    digest: str
    built: bool
    """False: it was there already (a cache hit; only inspected)."""
    seconds: float
    log: Path | None = None


def image_log_dir() -> Path:
    """``<cache>/images/logs`` (``REALCLI_CACHE_DIR``, default ``~/.cache/realcli``)."""
    cache = os.environ.get("REALCLI_CACHE_DIR") or os.path.join(
        os.environ.get("HOME", "/tmp"), ".cache", "realcli"
    )
    return Path(cache) / "images" / "logs"


@lru_cache(maxsize=4)
def docker_client(socket: str) -> docker.DockerClient:
    try:
        client = docker.DockerClient(base_url=socket, timeout=_BUILD_TIMEOUT_S)
        client.ping()
    except docker.errors.DockerException as exc:
        raise SandboxError(
            f"cannot reach the Docker daemon at {socket}: {exc} ({_DAEMON_FIX})"
        ) from exc
    return client


def _labels(client: docker.DockerClient, ref: str) -> dict[str, str] | None:
    try:
        info: dict[str, Any] = client.api.inspect_image(ref)
    except docker.errors.ImageNotFound:
        return None
    except docker.errors.APIError as exc:
        if exc.status_code == 404:
            return None
        raise SandboxError(f"docker inspect {ref} failed: {exc} ({_DAEMON_FIX})") from exc
    return dict((info.get("Config") or {}).get("Labels") or {})


def _image_id(client: docker.DockerClient, ref: str) -> str | None:
    try:
        return str(client.api.inspect_image(ref)["Id"])
    except docker.errors.ImageNotFound:
        return None
    except docker.errors.APIError as exc:
        if exc.status_code == 404:
            return None
        raise SandboxError(f"docker inspect {ref} failed: {exc} ({_DAEMON_FIX})") from exc


def plan_task_image(bundle: TaskBundle, docker_spec: DockerSpec) -> ImagePlan:
    """The plan of a task with a Dockerfile (every FROM resolved; nothing built)."""
    rel = bundle.spec.environment.dockerfile
    toml = str(bundle.root / "task.toml")
    if rel is None:
        raise TaskError(toml, "environment.dockerfile", "not set", "name the task's Dockerfile")
    dockerfile = bundle.root / rel
    if not dockerfile.is_file():
        raise TaskError(
            toml,
            "environment.dockerfile",
            f"{rel!r} is not a file in the bundle",
            "name the task's Dockerfile, relative to the bundle (e.g. environment/Dockerfile)",
        )
    client = docker_client(docker_spec.socket)
    plan = plan_dockerfile(
        dockerfile, docker_spec, lambda ref: _image_id(client, ref), kind="task", name=bundle.id
    )
    return dataclasses.replace(plan, scope=str(bundle.root.resolve().parent))


@contextlib.contextmanager
def _digest_lock(digest: str) -> Iterator[None]:
    """One builder per digest on this host (or on every host, with REALCLI_DOCKER_LOCKS on a
    filesystem they share)."""
    _LOCK_DIR.mkdir(parents=True, exist_ok=True)
    with (_LOCK_DIR / f"image-{digest[:32]}.lock").open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _has(client: docker.DockerClient, plan: ImagePlan) -> bool:
    labels = _labels(client, plan.tag)
    return labels is not None and labels.get(DIGEST_LABEL) == plan.digest


def _failed_step(plan: ImagePlan, step: str) -> tuple[str, str | None]:
    """(``Dockerfile:line``, instruction) of the classic builder's ``Step N/M : ...``."""
    where, keyword = str(plan.dockerfile), None
    match = re.match(r"Step (\d+)/\d+ : (\S+)", step)
    if match:
        parser = DockerfileParser(fileobj=io.BytesIO())  # in memory: never a file
        parser.content = plan.text
        steps = parser.structure
        n = int(match.group(1))
        if 0 < n <= len(steps):
            where = f"{plan.dockerfile}:{steps[n - 1]['startline'] + 1}"
        keyword = match.group(2).upper()
    return where, keyword


def _build(client: docker.DockerClient, plan: ImagePlan, log: Path) -> None:
    assert plan.context is not None and plan.kind in ("task", "image")
    labels = {
        DIGEST_LABEL: plan.digest,
        KIND_LABEL: plan.kind,
        TASK_LABEL: plan.name if plan.kind == "task" else "",
        NAME_LABEL: plan.name if plan.kind == "image" else "",
        TASKS_DIR_LABEL: plan.scope,
        PARENTS_LABEL: " ".join(p.tag for p in plan.parents),
    }
    log.parent.mkdir(parents=True, exist_ok=True)
    step, error, lines = "", "", []
    with log.open("w", encoding="utf-8") as out, tempfile.TemporaryFile() as context:
        out.write(f"# realcli build of {plan.tag} from {plan.dockerfile}\n# digest {plan.digest}\n")
        tar(
            str(plan.context),
            exclude=dockerignore_patterns(plan.context),
            dockerfile=(SENT_DOCKERFILE, plan.text),
            fileobj=context,
        )
        try:
            for chunk in client.api.build(
                fileobj=context,
                custom_context=True,
                dockerfile=SENT_DOCKERFILE,
                tag=plan.tag,
                labels=labels,
                buildargs=dict(plan.args),
                network_mode="none",
                pull=False,
                rm=True,
                forcerm=True,
                decode=True,
            ):
                text = str(chunk.get("stream") or "")
                if chunk.get("error"):
                    error = str(chunk["error"]).strip()
                    text += f"ERROR: {error}\n"
                out.write(text)
                out.flush()
                for line in _ANSI.sub("", text).splitlines():
                    if line.startswith("Step "):
                        step = line
                    if line.strip():
                        lines.append(line.rstrip())
        except docker.errors.APIError as exc:
            error = str(exc)
            out.write(f"ERROR: {error}\n")
    if not error:
        return
    where, keyword = _failed_step(plan, step)
    raise ImageBuildError(
        where,
        keyword,
        f"the build of {plan.tag} failed at {step or 'the start'}: {error}",
        f"fix that step (builds have no network: nothing can be downloaded); log: {log}",
        lines[-_LOG_TAIL:],
    )


def _ensure(client: docker.DockerClient, plan: ImagePlan, log_dir: Path) -> BuiltImage:
    start = time.monotonic()
    if plan.kind == "local":
        return BuiltImage(plan.kind, plan.name, plan.tag, plan.digest, False, 0.0)
    if plan.kind == "base":
        cached = image_label(plan.tag) == base_digest()
        ensure_base_image(plan.tag)
        return BuiltImage("base", plan.name, plan.tag, plan.digest, not cached, _since(start))
    log = log_dir / f"{plan.tag.split('/', 1)[1].replace('/', '_').replace(':', '-')}.log"
    if not _has(client, plan):
        with _digest_lock(plan.digest):
            if not _has(client, plan):  # another builder may have finished meanwhile
                _build(client, plan, log)
                return BuiltImage(
                    plan.kind, plan.name, plan.tag, plan.digest, True, _since(start), log
                )
    return BuiltImage(plan.kind, plan.name, plan.tag, plan.digest, False, _since(start), log)


def _since(start: float) -> float:
    return time.monotonic() - start


def build_task_image(
    bundle: TaskBundle, docker_spec: DockerSpec, *, log_dir: Path | None = None
) -> list[BuiltImage]:
    """Every image the task's run needs, parents first, the task's own last; each built only
    when no image of its digest exists.

    Raises:
        TaskError: a FROM resolves to nothing, an ``environment.image`` that is not local, a
            missing Dockerfile; :class:`ImageBuildError` when a step fails.
        SandboxError: the daemon cannot be reached (or realcli's base cannot be built).
    """
    env = bundle.spec.environment
    client = docker_client(docker_spec.socket)
    if env.dockerfile is None and env.image is not None:
        image_id = _image_id(client, env.image)
        if image_id is None:
            raise TaskError(
                str(bundle.root / "task.toml"),
                "environment.image",
                f"{env.image!r} is not a local image (nothing is pulled here)",
                "build or `docker load` it on this host, or set environment.dockerfile instead",
            )
        return [BuiltImage("local", env.image, env.image, image_id, False, 0.0)]
    if env.dockerfile is None:
        start = time.monotonic()
        plan = ImagePlan("base", docker_spec.base_image, docker_spec.base_image, base_digest())
        built = _ensure(client, plan, log_dir or image_log_dir())
        return [BuiltImage(**{**built.__dict__, "seconds": _since(start)})]
    plan = plan_task_image(bundle, docker_spec)
    return [_ensure(client, p, log_dir or image_log_dir()) for p in plan.chain()]


def task_image(bundle: TaskBundle, docker: DockerSpec) -> str:
    """The local image tag a ``sandbox=docker`` run of ``bundle`` uses (built if missing)."""
    return build_task_image(bundle, docker)[-1].tag
