"""``realcli images build | list | prune``: the task images of ``sandbox=docker`` by hand."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import docker.errors

from realcli.sandbox.base import SandboxError
from realcli.sandbox.docker_base import DIGEST_LABEL
from realcli.sandbox.images import (
    KIND_LABEL,
    NAME_LABEL,
    PARENTS_LABEL,
    TASK_LABEL,
    TASKS_DIR_LABEL,
    TaskBundle,
    build_task_image,
    docker_client,
    plan_task_image,
)
from realcli.schema.run_spec import DockerSpec
from realcli.util.errors import RealcliError

__all__ = [
    "images_build",
    "images_list",
    "images_prune",
    "prune_candidates",
    "referenced_tags",
]

_PREFIXES = ("realcli-task/", "realcli-image/")
"""Repositories realcli builds (and may prune); realcli's base is docker_base's, kept."""


def images_build(bundles: Sequence[TaskBundle], docker_spec: DockerSpec) -> int:
    """Build each task's images; one line per image: task, what, tag, digest, seconds, state."""
    failed = 0
    print(f"{'task':28s} {'image':44s} {'digest':16s} {'seconds':>8s}  state")
    for bundle in bundles:
        start = time.monotonic()
        try:
            chain = build_task_image(bundle, docker_spec)
        except (RealcliError, SandboxError) as exc:
            failed += 1
            print(f"{bundle.id:28s} FAIL {exc}")
            for line in getattr(exc, "details", ()):
                print(f"{'':28s} | {line}")
            continue
        for image in chain:
            state = "built" if image.built else "cached"
            shown = image.tag if image.kind != "local" else f"{image.tag} (local)"
            print(
                f"{bundle.id:28s} {shown:44s} {image.digest.removeprefix('sha256:')[:16]:16s}"
                f" {image.seconds:8.2f}  {state}"
            )
        if len(chain) > 1:
            print(f"{bundle.id:28s} {'(whole chain)':44s} {'':16s} {time.monotonic() - start:8.2f}")
    print(f"{len(bundles) - failed} of {len(bundles)} tasks have their image")
    return 1 if failed else 0


def _realcli_images(docker_spec: DockerSpec) -> list[Any]:
    client = docker_client(docker_spec.socket)
    return list(client.images.list(filters={"label": DIGEST_LABEL}))


def _age(created: str) -> str:
    when = datetime.fromisoformat(created.split(".")[0].rstrip("Z")).replace(tzinfo=UTC)
    seconds = (datetime.now(UTC) - when).total_seconds()
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{seconds:.0f}s"


def images_list(docker_spec: DockerSpec) -> int:
    """realcli's local images: tag, kind, task (or the name a base Dockerfile defines),
    digest, size and age."""
    print(f"{'tag':48s} {'kind':6s} {'task / name':28s} {'digest':16s} {'size':>8s} {'age':>5s}")
    rows = untagged = 0
    for image in _realcli_images(docker_spec):
        labels = image.labels or {}
        if not image.tags:
            untagged += 1
            continue
        kind = labels.get(KIND_LABEL) or "base"
        owner = labels.get(TASK_LABEL) or labels.get(NAME_LABEL) or "-"
        size = f"{image.attrs.get('Size', 0) / 1e6:.0f}MB"
        for tag in image.tags:
            rows += 1
            print(
                f"{tag:48s} {kind:6s} {owner:28s} {labels.get(DIGEST_LABEL, '')[:16]:16s}"
                f" {size:>8s} {_age(image.attrs.get('Created', '')):>5s}"
            )
    print(
        f"{rows} realcli images"
        + (f", {untagged} untagged (docker image prune)" if untagged else "")
    )
    return 0


def referenced_tags(
    bundles: Sequence[TaskBundle], docker_spec: DockerSpec
) -> tuple[set[str], list[str]]:
    """(tags of every image the tasks' current Dockerfiles need, ids of tasks whose plan
    failed). Planning builds nothing."""
    tags: set[str] = set()
    unplanned: list[str] = []
    for bundle in bundles:
        if bundle.spec.environment.dockerfile is None:
            continue
        try:
            plan = plan_task_image(bundle, docker_spec)
        except RealcliError as exc:
            print(f"keep {bundle.id}: its images cannot be planned: {exc}")
            unplanned.append(bundle.id)
            continue
        tags.update(p.tag for p in plan.chain())
    return tags, unplanned


def prune_candidates(
    images: Sequence[Any], tasks_dir: Path, tags: set[str], unplanned: Sequence[str]
) -> list[str]:
    """The tags ``realcli images prune`` removes: task images built from ``tasks_dir`` whose
    tag no current task needs (an older digest, a task that is gone), then base-Dockerfile
    images that nothing needs now and no remaining image was built FROM. A task whose plan
    failed keeps its images (and so every base-Dockerfile image stays)."""
    scope = str(tasks_dir.resolve())
    remove: list[str] = []
    for image in images:
        labels = image.labels or {}
        for tag in image.tags:
            if (
                tag.startswith(_PREFIXES[0])
                and labels.get(TASKS_DIR_LABEL) == scope
                and tag not in tags
                and labels.get(TASK_LABEL) not in unplanned
            ):
                remove.append(tag)
    if unplanned:
        return remove
    needed = set(tags)
    for image in images:
        if any(t not in remove for t in image.tags):
            needed.update((image.labels or {}).get(PARENTS_LABEL, "").split())
    for image in images:
        remove += [t for t in image.tags if t.startswith(_PREFIXES[1]) and t not in needed]
    return remove


def images_prune(bundles: Sequence[TaskBundle], tasks_dir: Path, docker_spec: DockerSpec) -> int:
    """Remove the images :func:`prune_candidates` names (every task of ``tasks_dir``)."""
    tags, unplanned = referenced_tags(bundles, docker_spec)
    client = docker_client(docker_spec.socket)
    removed = 0
    for tag in prune_candidates(_realcli_images(docker_spec), tasks_dir, tags, unplanned):
        try:
            client.images.remove(tag)
        except docker.errors.APIError as exc:
            print(f"kept {tag}: {exc.explanation or exc}")
            continue
        removed += 1
        print(f"removed {tag}")
    print(f"{removed} images removed")
    return 0
