"""sandbox.images against the real daemon: task images from their own Dockerfiles, FROM chains
through an image_dirs folder shaped like LongCLI-Bench's ``longcli_dockerImage/``, the digest
cache, .dockerignore, and the errors a user sees.

Every image built here carries a nonce in its context (a new digest per test session) and is
removed at the end, so nothing here hits another session's cache."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import docker
import pytest

from realcli.catalog import load_task
from realcli.catalog.bundle import TaskBundle
from realcli.sandbox.docker_base import DIGEST_LABEL
from realcli.sandbox.images import (
    PARENTS_LABEL,
    TASK_LABEL,
    ImageBuildError,
    build_task_image,
    task_image,
)
from realcli.sandbox.images_cli import prune_candidates, referenced_tags
from realcli.schema.run_spec import DockerSpec
from realcli.util.errors import TaskError
from tests.conftest import REALCLI

pytestmark = [pytest.mark.docker, pytest.mark.xdist_group("docker-images")]

NONCE = uuid.uuid4().hex
BASE = "realcli-base:bookworm"
LONGCLI_ALIAS = {"ghcr.io/laude-institute/t-bench/*": BASE}
"""What a user opts into to build LongCLI-Bench's base Dockerfiles over realcli's base."""

# LongCLI-Bench's two base Dockerfiles, as the release writes them, with the toolchain installs
# (apt-get, curl | sh, nvm: network) replaced by stand-in RUNs that write marker files.
MAKE_PYTEST_BASE = """\
FROM ghcr.io/laude-institute/t-bench/ubuntu-24-04:20250624

RUN mkdir -p /opt/markers && echo make-pytest > /opt/markers/make-pytest

ENV PATH="/root/.local/bin:${PATH}"

WORKDIR /opt/pytest-proj
RUN echo "pytest stand-in" > /opt/pytest-proj/pytest.txt

WORKDIR /app

ARG NODE_VERSION=22

ENV NVM_DIR=/root/.nvm

# Use bash so nvm scripts source correctly
SHELL ["/bin/bash", "-o", "pipefail", "-c"]

RUN rm -rf /app/docker_data
# RUN rm -rf /app/util

RUN mkdir -p "$NVM_DIR" \\
 && echo "node ${NODE_VERSION}" > "$NVM_DIR/version" \\
 # comment lines inside a continued RUN, as the release has them
 && echo done
"""
C_ENV_BASE = """\
FROM ghcr.io/laude-institute/t-bench/ubuntu-24-04:20250624

RUN mkdir -p /opt/markers && echo c-env > /opt/markers/c-env

WORKDIR /app

ARG NODE_VERSION=22
ARG CODEX_VERSION=0.98.0

ENV NVM_DIR=/root/.nvm
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN echo "codex ${CODEX_VERSION}" > /opt/markers/codex

WORKDIR /app
"""


def _bundle(root: Path, task_id: str, dockerfile: str | None, files: dict[str, str]) -> Path:
    """A minimal task bundle whose ``environment/`` holds ``files`` and the Dockerfile."""
    bundle = root / task_id
    for rel in ("environment/repo", "tests/f2p", "tests/p2p", "solution"):
        (bundle / rel).mkdir(parents=True, exist_ok=True)
    env = f'\n[environment]\ndockerfile = "{dockerfile}"\n' if dockerfile else ""
    (bundle / "task.toml").write_text(
        f'id = "{task_id}"\ncategory = "feature"\ntitle = "image test"\n'
        '[[substeps]]\nid = "s1"\ntitle = "x"\ntests = ["f2p/test_x.py"]\n' + env,
        encoding="utf-8",
    )
    (bundle / "instruction.md").write_text("build\n", encoding="utf-8")
    (bundle / "tests/f2p/test_x.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    (bundle / "solution/trajectory.jsonl").write_text("", encoding="utf-8")
    (bundle / "environment/repo/nonce.txt").write_text(NONCE, encoding="utf-8")
    for rel, text in files.items():
        (bundle / "environment" / rel).parent.mkdir(parents=True, exist_ok=True)
        (bundle / "environment" / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    return bundle


@pytest.fixture(scope="module")
def client() -> Iterator[docker.DockerClient]:
    """The daemon (CI starts it: scripts/dockerd.sh). Removes this module's images after."""
    try:
        cli = docker.from_env()
        cli.ping()
    except docker.errors.DockerException as exc:
        pytest.fail(f"dockerd is not running ({exc}): bash scripts/dockerd.sh starts it")
    start = time.time() - 5
    yield cli
    doomed = []
    for image in cli.images.list(filters={"label": DIGEST_LABEL}):
        created = datetime.fromisoformat(image.attrs["Created"][:19]).replace(tzinfo=UTC)
        for tag in image.tags:
            if tag.startswith("realcli-task/img-") or (
                tag.startswith("realcli-image/tb/") and created.timestamp() >= start
            ):
                doomed.append(tag)
    for tag in sorted(doomed, key=lambda t: not t.startswith("realcli-task/")):  # children first
        cli.images.remove(tag, force=True)


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("image-tasks")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("image-logs")


def _cat(client: docker.DockerClient, tag: str, *paths: str) -> str:
    out = client.containers.run(tag, ["cat", *paths], network_mode="none", remove=True, stderr=True)
    return bytes(out).decode()


@pytest.fixture(scope="module")
def simple(tasks: Path) -> TaskBundle:
    """FROM realcli's base; adds files and a RUN; a .dockerignore keeps two paths out."""
    root = _bundle(
        tasks,
        "img-simple",
        "environment/Dockerfile",
        {
            "Dockerfile": """\
                FROM realcli-base:bookworm
                COPY . /ctx
                COPY hello.txt /opt/hello.txt
                RUN echo "ran as $(id -u)" > /opt/marker && test ! -e /ctx/secret.key
                """,
            ".dockerignore": "*.key\nscratch/\n",
            "hello.txt": "hello from the context\n",
            "secret.key": "never sent\n",
            "scratch/big.bin": "ignored folder\n",
        },
    )
    return load_task(root)


def test_a_dockerfile_over_realcli_base_builds_then_hits_the_cache(
    client: docker.DockerClient, simple: TaskBundle, logs: Path
) -> None:
    first = build_task_image(simple, DockerSpec(), log_dir=logs)
    assert [(i.kind, i.tag) for i in first[:1]] == [("base", BASE)]
    task = first[-1]
    assert task.built and task.tag == f"realcli-task/img-simple:{task.digest[:16]}"
    labels = client.images.get(task.tag).labels
    assert labels[DIGEST_LABEL] == task.digest and labels[TASK_LABEL] == "img-simple"
    assert _cat(client, task.tag, "/opt/hello.txt", "/opt/marker") == (
        "hello from the context\nran as 0\n"
    )
    listing = client.containers.run(
        task.tag, ["ls", "-a", "/ctx"], network_mode="none", remove=True
    ).decode()
    assert "hello.txt" in listing and "repo" in listing
    assert "secret.key" not in listing and "scratch" not in listing  # .dockerignore held
    assert task.log is not None and "Step 4/" in task.log.read_text(encoding="utf-8")

    again = build_task_image(simple, DockerSpec(), log_dir=logs)
    assert [i.built for i in again] == [False, False]  # inspect only, no build
    assert again[-1].tag == task.tag and again[-1].seconds < 1.0
    assert task_image(simple, DockerSpec()) == task.tag


def test_a_changed_context_file_rebuilds_and_an_ignored_one_does_not(
    client: docker.DockerClient, simple: TaskBundle, logs: Path
) -> None:
    before = build_task_image(simple, DockerSpec(), log_dir=logs)[-1]
    (simple.root / "environment/secret.key").write_text("changed, still ignored\n")
    assert build_task_image(simple, DockerSpec(), log_dir=logs)[-1].tag == before.tag
    (simple.root / "environment/hello.txt").write_text("hello again\n", encoding="utf-8")
    after = build_task_image(simple, DockerSpec(), log_dir=logs)[-1]
    assert after.built and after.digest != before.digest
    assert _cat(client, after.tag, "/opt/hello.txt") == "hello again\n"


@pytest.fixture(scope="module")
def release(tasks: Path) -> Path:
    """An image_dirs folder shaped like LongCLI-Bench's ``longcli_dockerImage/``."""
    folder = tasks.parent / "longcli_dockerImage"
    folder.mkdir(exist_ok=True)
    (folder / "Dockerfile.make-pytest-base").write_text(MAKE_PYTEST_BASE, encoding="utf-8")
    (folder / "Dockerfile.c-env-base").write_text(
        C_ENV_BASE.replace("WORKDIR /app\n\n", f"WORKDIR /app\n# {NONCE}\n\n", 1),
        encoding="utf-8",
    )
    return folder


@pytest.fixture(scope="module")
def chained(tasks: Path) -> TaskBundle:
    """A task built FROM the release's bases: ARG before FROM, two stages, COPY --from."""
    root = _bundle(
        tasks,
        "img-chain",
        "environment/Dockerfile",
        {
            "Dockerfile": """\
                ARG BASE_IMAGE=tb/make-pytest:v0
                FROM ${BASE_IMAGE} AS tools
                RUN echo "built in $(pwd)" > /opt/markers/tools

                FROM tb/c-env:v0
                COPY --from=tools /opt/markers/tools /opt/markers/make-pytest /opt/markers/
                WORKDIR /app
                COPY repo/ /app/
                RUN ls /app > /opt/markers/app
                """,
        },
    )
    return load_task(root)


def test_a_from_chain_through_image_dirs_builds_the_release_bases_first(
    client: docker.DockerClient, chained: TaskBundle, release: Path, logs: Path
) -> None:
    spec = DockerSpec(image_dirs=(str(release),), image_aliases=LONGCLI_ALIAS)
    written = {
        p: p.read_bytes() for p in [*release.iterdir(), chained.root / "environment/Dockerfile"]
    }
    chain = build_task_image(chained, spec, log_dir=logs)
    # the FROM lines are rewritten in the context sent, never in the files (a parser given a
    # path writes its content back there)
    assert {p: p.read_bytes() for p in written} == written
    kinds = [(i.kind, i.name) for i in chain]
    assert kinds == [
        ("base", BASE),
        ("image", "tb/make-pytest:v0"),
        ("image", "tb/c-env:v0"),
        ("task", "img-chain"),
    ]
    assert all(i.built for i in chain[1:])
    assert chain[1].tag.startswith("realcli-image/tb/make-pytest-v0:")
    out = _cat(
        client,
        chain[-1].tag,
        "/opt/markers/c-env",
        "/opt/markers/codex",
        "/opt/markers/make-pytest",
        "/opt/markers/tools",
        "/opt/markers/app",
    )
    assert out == "c-env\ncodex 0.98.0\nmake-pytest\nbuilt in /app\nnonce.txt\n"
    parents = client.images.get(chain[-1].tag).labels[PARENTS_LABEL].split()
    assert parents == [chain[1].tag, chain[2].tag]
    # the FROM names stay the release's: nothing is tagged tb/... on the daemon
    assert not client.images.list(name="tb/make-pytest")

    again = build_task_image(chained, spec, log_dir=logs)
    assert [i.built for i in again] == [False] * 4 and [i.tag for i in again] == [
        i.tag for i in chain
    ]


def test_without_the_alias_the_release_base_names_its_dockerfile_line_and_the_fix(
    chained: TaskBundle, release: Path
) -> None:
    with pytest.raises(TaskError) as err:
        build_task_image(chained, DockerSpec(image_dirs=(str(release),)))
    message = str(err.value)
    assert f"{release}/Dockerfile.make-pytest-base:1: FROM:" in message
    assert "'ghcr.io/laude-institute/t-bench/ubuntu-24-04:20250624' is not a local image" in message
    assert "never pulled" in message and "sandbox.docker.image_aliases" in message


def test_an_unresolvable_from_is_a_clear_error(tasks: Path) -> None:
    public = load_task(
        _bundle(
            tasks, "img-public", "environment/Dockerfile", {"Dockerfile": "FROM python:3.11-slim\n"}
        )
    )
    with pytest.raises(TaskError) as err:
        build_task_image(public, DockerSpec())
    assert f"{public.root}/environment/Dockerfile:1: FROM:" in str(err.value)
    assert f'{{"python:3.11-slim": {DockerSpec().base_image}}}' in str(err.value)
    private = load_task(
        _bundle(
            tasks,
            "img-private",
            "environment/Dockerfile",
            {"Dockerfile": "# a comment first\nFROM acme/toolbox:2\nRUN true\n"},
        )
    )
    with pytest.raises(TaskError) as err:
        build_task_image(private, DockerSpec())
    assert ":2: FROM: 'acme/toolbox:2'" in str(err.value)
    assert "sandbox.docker.image_dirs" in str(err.value)


def test_images_toml_names_an_image_and_a_cycle_is_reported(tasks: Path, logs: Path) -> None:
    root = _bundle(
        tasks,
        "img-cycle",
        "environment/Dockerfile",
        {
            "Dockerfile": "FROM lab/a:1\n",
            "images.toml": '[images]\n"lab/a:1" = "a.Dockerfile"\n'
            '"lab/b:1" = {dockerfile = "b.Dockerfile"}\n',
            "a.Dockerfile": "FROM lab/b:1\n",
            "b.Dockerfile": "FROM lab/a:1\n",
        },
    )
    with pytest.raises(TaskError, match=r"in a cycle: img-cycle -> lab/a:1 -> lab/b:1 -> lab/a:1"):
        build_task_image(load_task(root), DockerSpec())
    (root / "environment/images.toml").write_text('[images]\n"lab/a:1" = "missing.Dockerfile"\n')
    with pytest.raises(TaskError, match=r"images.toml: images.lab/a:1.dockerfile: 'missing"):
        build_task_image(load_task(root), DockerSpec())


def test_a_failing_run_names_the_dockerfile_the_step_and_the_log(tasks: Path, logs: Path) -> None:
    bundle = load_task(
        _bundle(
            tasks,
            "img-fails",
            "environment/Dockerfile",
            {
                "Dockerfile": """\
                    FROM realcli-base:bookworm
                    RUN echo fine
                    RUN echo "compiler missing" >&2 && exit 3
                    RUN echo never
                    """
            },
        )
    )
    with pytest.raises(ImageBuildError) as err:
        build_task_image(bundle, DockerSpec(), log_dir=logs)
    message = str(err.value)
    assert message.startswith(f"{bundle.root}/environment/Dockerfile:3: RUN: ")
    assert "Step 3/" in message and "returned a non-zero code: 3" in message
    assert "compiler missing" in "\n".join(err.value.details)
    log = Path(message.split("log: ")[1].rstrip(")"))
    assert log.parent == logs and "compiler missing" in log.read_text(encoding="utf-8")


def test_environment_image_and_the_default_base(tasks: Path) -> None:
    base = load_task(_bundle(tasks, "img-default", None, {}))
    assert task_image(base, DockerSpec()) == DockerSpec().base_image  # FROM's name aliases it
    toml = tasks / "img-default/task.toml"
    toml.write_text(toml.read_text() + '\n[environment]\nimage = "acme/prebuilt:1"\n')
    with pytest.raises(TaskError, match=r"task.toml: environment.image: 'acme/prebuilt:1' is not"):
        task_image(load_task(tasks / "img-default"), DockerSpec())
    toml.write_text(toml.read_text().replace("acme/prebuilt:1", BASE))
    assert task_image(load_task(tasks / "img-default"), DockerSpec()) == BASE


_BUILD_ONE = """
import json, sys, time
from pathlib import Path
from realcli.catalog import load_task
from realcli.sandbox.images import build_task_image
from realcli.schema.run_spec import DockerSpec
start = time.time()
chain = build_task_image(load_task(Path(sys.argv[1])), DockerSpec(), log_dir=Path(sys.argv[2]))
print(json.dumps({"built": chain[-1].built, "tag": chain[-1].tag, "start": start,
                  "end": time.time()}))
"""


def test_two_processes_building_one_digest_build_it_once(tasks: Path, logs: Path) -> None:
    root = _bundle(
        tasks,
        "img-race",
        "environment/Dockerfile",
        {"Dockerfile": "FROM realcli-base:bookworm\nRUN sleep 3 && date > /opt/built-at\n"},
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _BUILD_ONE, str(root), str(logs)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [json.loads(p.communicate(timeout=300)[0]) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sorted(r["built"] for r in results) == [False, True]
    assert results[0]["tag"] == results[1]["tag"]
    first_end = min(r["end"] for r in results)
    assert max(r["start"] for r in results) < first_end  # they did overlap


def test_cli_build_list_and_what_prune_removes(
    client: docker.DockerClient, simple: TaskBundle, tasks: Path, logs: Path
) -> None:
    env = {"REALCLI_TASKS_DIR": str(tasks), "PATH": "/usr/bin:/bin", "HOME": str(logs)}
    out = subprocess.run(
        [*REALCLI, "images", "build", "img-simple"], capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    current = build_task_image(simple, DockerSpec(), log_dir=logs)[-1]
    assert f"{current.tag} {current.digest[:16]}" in " ".join(out.stdout.split())
    assert out.stdout.rstrip().endswith("1 of 1 tasks have their image")
    listing = subprocess.run(
        [*REALCLI, "images", "list"], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert any(ln.split()[:3] == [current.tag, "task", "img-simple"] for ln in listing.splitlines())

    (simple.root / "environment/hello.txt").write_text(f"prune me {NONCE}\n")
    newer = build_task_image(load_task(simple.root), DockerSpec(), log_dir=logs)[-1]
    bundles = [load_task(simple.root)]
    tags, unplanned = referenced_tags(bundles, DockerSpec())
    assert newer.tag in tags and not unplanned
    ours = client.images.list(name="realcli-task/img-simple")
    doomed = prune_candidates(ours, tasks, tags, unplanned)
    assert current.tag in doomed and newer.tag not in doomed
    assert prune_candidates(ours, tasks.parent, tags, unplanned) == []  # another tasks dir's
