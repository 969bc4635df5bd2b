"""What an image is built from, before anything is built: each ``FROM`` resolved to a local
image, the Dockerfile rewritten to name it, and a content digest over all of it.

A ``FROM`` name resolves, in this order, to:

1. ``scratch``, or a stage named earlier in the same Dockerfile (multi-stage builds);
2. realcli's base image (``sandbox.docker.base_image``, ``realcli-base:bookworm``);
3. a Dockerfile that defines the name in the Dockerfile's own folder, then in each folder of
   ``sandbox.docker.image_dirs``: an ``images.toml`` entry, else the file-name convention
   (``Dockerfile.<name>-base``, ``Dockerfile.<name>``, ``<name>/Dockerfile``,
   ``<name>.Dockerfile``, where ``<name>`` is the last path part without its tag:
   ``tb/make-pytest:v0`` -> ``Dockerfile.make-pytest-base``), built first (recursively);
4. an image already on the daemon (``docker load``-ed, or built by hand);
5. ``sandbox.docker.image_aliases`` (opt-in; a name or a glob -> a local image);

else it is an error naming the Dockerfile, the line and the fix. Nothing is ever pulled.
"""

from __future__ import annotations

import fnmatch
import hashlib
import io
import os
import re
import stat
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from docker.utils.build import exclude_paths
from dockerfile_parse import DockerfileParser
from pydantic import Field, ValidationError

from realcli.sandbox.docker_base import base_digest
from realcli.schema.base import Frozen
from realcli.schema.run_spec import DockerSpec
from realcli.util.errors import TaskError
from realcli.util.hashing import sha256_json
from realcli.util.validation import describe_validation_error

__all__ = [
    "IMAGES_TOML",
    "RECIPE",
    "SENT_DOCKERFILE",
    "ImagePlan",
    "context_digest",
    "dockerignore_patterns",
    "find_definition",
    "local_tag",
    "plan_dockerfile",
]

RECIPE = 1
"""Bump when the way images are built changes: every digest changes with it."""
IMAGES_TOML = "images.toml"
SENT_DOCKERFILE = ".realcli.Dockerfile"
"""The name the rewritten Dockerfile has in the build context sent to the daemon."""
DEFAULT_BASE = "realcli-base:bookworm"
_MAX_DEPTH = 16
_PUBLIC_BASES = re.compile(
    r"^(?:(?:docker\.io/)?(?:library/)?(?:debian|ubuntu|python|buildpack-deps)[:@]"
    r"|ghcr\.io/laude-institute/t-bench/)"
)
"""Well-known Debian/Ubuntu/Python bases: the error suggests an alias to realcli's base."""

Inspect = Callable[[str], str | None]
"""A local image name -> its image ID, or None when the daemon has no such image."""


class ImageEntry(Frozen):
    """One image an ``images.toml`` defines."""

    dockerfile: str = Field(description="the Dockerfile, relative to the images.toml folder")
    context: str = Field(".", description="the build context, relative to the folder")
    args: dict[str, str] = Field(default_factory=dict, description="build arguments")


class ImagesToml(Frozen):
    images: dict[str, str | ImageEntry] = Field(
        default_factory=dict, description="image name -> Dockerfile, or {dockerfile, context, args}"
    )


@dataclass(frozen=True)
class ImagePlan:
    """One image of a build: the task's, a base it is built ``FROM``, realcli's base or an
    image already on the daemon (``kind``)."""

    kind: Literal["task", "image", "base", "local"]
    name: str
    """The task id, the name the Dockerfile defines (``tb/make-pytest:v0``) or the image."""
    tag: str
    """The local tag this image has once built (``realcli-task/<id>:<digest[:16]>``)."""
    digest: str
    dockerfile: Path | None = None
    context: Path | None = None
    text: str = ""
    """The Dockerfile sent to the daemon: every FROM names a local image."""
    args: Mapping[str, str] = field(default_factory=dict)
    parents: tuple[ImagePlan, ...] = ()
    scope: str = ""
    """A task image: the tasks dir its bundle is in (``realcli images prune`` of another
    tasks dir leaves it alone). Not part of the digest."""

    def chain(self) -> list[ImagePlan]:
        """Every image this one needs, parents before children, each once, itself last."""
        seen: dict[str, ImagePlan] = {}
        for parent in self.parents:
            for p in parent.chain():
                seen.setdefault(p.tag, p)
        seen.setdefault(self.tag, self)
        return list(seen.values())


def dockerignore_patterns(context: Path) -> list[str]:
    """The ``.dockerignore`` patterns of ``context`` as the Docker CLI reads them."""
    path = context / ".dockerignore"
    if not path.is_file():
        return []
    lines = (ln.strip() for ln in path.read_text(encoding="utf-8").splitlines())
    return [ln for ln in lines if ln and not ln.startswith("#")]


def context_files(context: Path) -> list[str]:
    """The paths of ``context`` that are sent to the daemon (``.dockerignore`` applied)."""
    patterns = dockerignore_patterns(context)
    return sorted(exclude_paths(str(context), patterns, SENT_DOCKERFILE))


def context_digest(context: Path) -> str:
    """Digest of every path sent: its name, type, permission bits and content (a link: its
    target). Times and owners are left out, as Docker's own build cache leaves them out."""
    h = hashlib.sha256()
    for rel in context_files(context):
        path = context / rel
        st = path.lstat()
        h.update(rel.encode() + b"\0" + oct(stat.S_IMODE(st.st_mode)).encode() + b"\0")
        if stat.S_ISLNK(st.st_mode):
            h.update(b"L" + os.readlink(path).encode())
        elif stat.S_ISREG(st.st_mode):
            h.update(b"F")
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
        else:
            h.update(b"D")
        h.update(b"\0")
    return h.hexdigest()


def local_tag(kind: Literal["task", "image"], name: str, digest: str) -> str:
    """``realcli-task/<task id>:<digest[:16]>`` or ``realcli-image/<name>:<digest[:16]>``,
    the name made a valid Docker repository path."""
    repo = re.sub(r"[^a-z0-9._/-]+", "-", name.lower().split("@", 1)[0].replace(":", "-"))
    parts = [re.sub(r"^[._-]+|[._-]+$", "", re.sub(r"[._-]{2,}", "-", p)) for p in repo.split("/")]
    repo = "/".join(p for p in parts if p) or "image"
    return f"realcli-{kind}/{repo}:{digest[:16]}"


def _read_toml(folder: Path) -> dict[str, ImageEntry]:
    path = folder / IMAGES_TOML
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            parsed = ImagesToml.model_validate(tomllib.load(fh))
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(str(path), None, f"not valid TOML ({exc})", "fix the syntax") from exc
    except ValidationError as exc:
        where, problem, fix = describe_validation_error(exc, ImagesToml)
        raise TaskError(str(path), where, problem, fix) from exc
    entries = {
        name: ImageEntry(dockerfile=raw) if isinstance(raw, str) else raw
        for name, raw in parsed.images.items()
    }
    for name, entry in entries.items():
        for what, rel in (("dockerfile", entry.dockerfile), ("context", entry.context)):
            target = (folder / rel).resolve()
            if not target.is_relative_to(folder.resolve()) or not target.exists():
                raise TaskError(
                    str(path),
                    f"images.{name}.{what}",
                    f"{rel!r} is not a {'file' if what == 'dockerfile' else 'folder'} in {folder}",
                    "name a path inside the folder of images.toml",
                )
    return entries


def find_definition(name: str, folders: list[Path]) -> tuple[Path, Path, dict[str, str]] | None:
    """(Dockerfile, context, build args) of the first folder that defines image ``name``."""
    short = name.split("@", 1)[0].rsplit("/", 1)[-1].split(":", 1)[0]
    for folder in folders:
        entry = _read_toml(folder).get(name)
        if entry is not None:
            return folder / entry.dockerfile, folder / entry.context, dict(entry.args)
        for candidate in (
            f"Dockerfile.{short}-base",
            f"Dockerfile.{short}",
            f"{short}/Dockerfile",
            f"{short}.Dockerfile",
        ):
            path = folder / candidate
            if path.is_file():
                return path, path.parent, {}
    return None


@dataclass
class _Resolver:
    docker: DockerSpec
    inspect: Inspect
    stack: list[str] = field(default_factory=list)
    done: dict[str, ImagePlan] = field(default_factory=dict)

    def image_dirs(self, own: Path) -> list[Path]:
        dirs = [own, *(Path(d).expanduser().resolve() for d in self.docker.image_dirs)]
        return list(dict.fromkeys(d for d in dirs if d.is_dir()))

    def resolve(self, ref: str, where: str, own: Path) -> ImagePlan:
        if ref in (self.docker.base_image, DEFAULT_BASE):
            return ImagePlan("base", ref, ref, base_digest())
        found = find_definition(ref, self.image_dirs(own))
        if found is not None:
            dockerfile, context, args = found
            return self.plan(dockerfile, context, kind="image", name=ref, args=args)
        image_id = self.inspect(ref)
        if image_id is not None:
            return ImagePlan("local", ref, ref, image_id)
        target = self.docker.image_aliases.get(ref)
        if target is None:
            target = next(
                (t for pat, t in self.docker.image_aliases.items() if fnmatch.fnmatch(ref, pat)),
                None,
            )
        if target is not None and target != ref and f"alias:{ref}" not in self.stack:
            self.stack.append(f"alias:{ref}")
            try:
                return self.resolve(target, f"{where} (sandbox.docker.image_aliases)", own)
            finally:
                self.stack.pop()
        dirs = ", ".join(str(d) for d in self.image_dirs(own))
        fix = (
            f"add a Dockerfile that defines it (Dockerfile.<name> or {IMAGES_TOML}) to a "
            "folder in sandbox.docker.image_dirs, or build or `docker load` it here"
        )
        if _PUBLIC_BASES.match(ref):
            fix = (
                f'map it to realcli\'s base: sandbox.docker.image_aliases: {{"{ref}": '
                f"{self.docker.base_image}}} (conf/local or conf/sandbox), or {fix}"
            )
        raise TaskError(
            where,
            "FROM",
            f"{ref!r} is not a local image and no Dockerfile in {dirs or '(no folder)'} "
            "defines it; images are never pulled here",
            fix,
        )

    def plan(
        self,
        dockerfile: Path,
        context: Path,
        *,
        kind: Literal["task", "image"],
        name: str,
        args: Mapping[str, str],
    ) -> ImagePlan:
        key = f"{dockerfile.resolve()}|{name}"
        if key in self.done:
            return self.done[key]
        if key in self.stack or len(self.stack) > _MAX_DEPTH:
            cycle = " -> ".join([*(s.split("|")[-1] for s in self.stack), name])
            raise TaskError(
                str(dockerfile),
                "FROM",
                f"the images build FROM each other in a cycle: {cycle}",
                "make one of them build FROM realcli's base or another image",
            )
        self.stack.append(key)
        try:
            plan = self._plan(dockerfile, context, kind=kind, name=name, args=args)
        finally:
            self.stack.pop()
        self.done[key] = plan
        return plan

    def _plan(
        self,
        dockerfile: Path,
        context: Path,
        *,
        kind: Literal["task", "image"],
        name: str,
        args: Mapping[str, str],
    ) -> ImagePlan:
        try:
            text = dockerfile.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise TaskError(str(dockerfile), None, f"cannot be read ({exc})", "fix it") from exc
        # an in-memory file: given a path, the parser writes the rewritten Dockerfile there
        parser = DockerfileParser(fileobj=io.BytesIO(), build_args=dict(args), env_replace=True)
        parser.content = text
        froms = [ins for ins in parser.structure if ins["instruction"] == "FROM"]
        if not froms:
            raise TaskError(str(dockerfile), "FROM", "no FROM instruction", "start it with FROM")
        stages: set[str] = set()
        parents: list[ImagePlan] = []
        rewritten: list[str] = []
        for ins, ref in zip(froms, parser.parent_images, strict=True):
            where = f"{dockerfile}:{ins['startline'] + 1}"
            if not ref or "$" in ref:
                raise TaskError(
                    where, "FROM", f"{ins['value']!r} names no image", "give the ARG a default"
                )
            if ref == "scratch" or ref.lower() in stages:
                rewritten.append(ref)
            else:
                parent = self.resolve(ref, where, dockerfile.parent)
                parents.append(parent)
                rewritten.append(parent.tag)
            alias = re.search(r"\s+as\s+(\S+)\s*$", ins["value"], flags=re.IGNORECASE)
            if alias:
                stages.add(alias.group(1).lower())
        parser.parent_images = rewritten
        sent = parser.content
        digest = sha256_json(
            {
                "recipe": RECIPE,
                "kind": kind,
                "name": name,
                "dockerfile": sent,
                "context": context_digest(context),
                "args": dict(sorted(args.items())),
                "parents": [p.digest for p in parents],
            }
        )
        return ImagePlan(
            kind,
            name,
            local_tag(kind, name, digest),
            digest,
            dockerfile=dockerfile,
            context=context,
            text=sent,
            args=dict(args),
            parents=tuple(parents),
        )


def plan_dockerfile(
    dockerfile: Path,
    docker: DockerSpec,
    inspect: Inspect,
    *,
    kind: Literal["task", "image"] = "task",
    name: str,
    args: Mapping[str, str] | None = None,
) -> ImagePlan:
    """The plan of ``dockerfile`` (built with its folder as context) and of every image its
    ``FROM`` lines need. Raises :class:`TaskError` for a FROM that resolves to nothing, a
    cycle, or an unreadable Dockerfile or images.toml."""
    resolver = _Resolver(docker, inspect)
    return resolver.plan(dockerfile, dockerfile.parent, kind=kind, name=name, args=args or {})
