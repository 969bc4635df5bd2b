"""Image step of ``sandbox=docker``: a cold build against a cache-hit rerun, side by side.

The task is a LongCLI-Bench-shaped one: its Dockerfile is the release's form (``FROM
tb/make-pytest:v0``, ``WORKDIR /app``, ``COPY`` the repo and the instruction) plus one offline
``RUN``, its repo a real one from this checkout (``tasks/lc-bugfix-markdown``, 2.6 MB); the base
``tb/make-pytest:v0`` comes from a folder shaped like the release's ``longcli_dockerImage/``
(``Dockerfile.make-pytest-base`` in the release's syntax, its network steps replaced by stand-in
RUNs), its public FROM mapped to realcli's base with ``sandbox.docker.image_aliases``.

Each repetition takes fresh copies with a new nonce in the base's first RUN, so neither realcli's
digest cache nor Docker's layer cache can help the cold build; realcli's own base image
(debootstrap, built once per machine) is there already in every column. Per repetition:

1. **cold**: ``build_task_image`` with nothing built: the base Dockerfile, then the task's;
2. **rerun**: the same call again, nothing changed (the acceptance: at most 5% of cold);
3. **task edit**: one file of the task's context changed: only the task image rebuilds.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import docker

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from realcli.catalog import load_task  # noqa: E402
from realcli.sandbox.docker_base import ensure_base_image  # noqa: E402
from realcli.sandbox.images import build_task_image  # noqa: E402
from realcli.schema.run_spec import DockerSpec  # noqa: E402
from tests.sandbox.test_images import MAKE_PYTEST_BASE  # noqa: E402

BEGIN, END = "<!-- bench/images.py begin -->", "<!-- bench/images.py end -->"
REPO = ROOT / "tasks" / "lc-bugfix-markdown"
TASK_DOCKERFILE = """\
FROM tb/make-pytest:v0

# FROM ghcr.io/laude-institute/t-bench/ubuntu-24-04:20250624

WORKDIR /app
COPY markdown ./markdown

COPY INSTRUCTION.md ./INSTRUCTION.md
RUN python3 -m compileall -q /app/markdown && git init -q /app/markdown
"""


def _fixture(tmp: Path, nonce: str) -> tuple[Path, Path]:
    release = tmp / "longcli_dockerImage"
    release.mkdir(parents=True)
    base = MAKE_PYTEST_BASE.replace("echo make-pytest", f"echo make-pytest {nonce}", 1)
    (release / "Dockerfile.make-pytest-base").write_text(base, encoding="utf-8")
    bundle = tmp / "tasks" / "bench-image-markdown"
    shutil.copytree(REPO, bundle, ignore=shutil.ignore_patterns("__pycache__"))
    (bundle / "task.toml").write_text(
        (REPO / "task.toml")
        .read_text(encoding="utf-8")
        .replace('id = "lc-bugfix-markdown"', 'id = "bench-image-markdown"')
        + '\n[environment]\ndockerfile = "environment/Dockerfile"\n',
        encoding="utf-8",
    )
    env = bundle / "environment"
    shutil.move(env / "repo", env / "markdown")
    (env / "repo").mkdir()
    shutil.copy(bundle / "instruction.md", env / "INSTRUCTION.md")
    (env / "Dockerfile").write_text(TASK_DOCKERFILE, encoding="utf-8")
    return release, bundle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--base-image",
        default="realcli-base:bookworm",
        help="realcli's base image (another tag keeps a branch with another base recipe, "
        "sharing the daemon, from rebuilding it mid-run)",
    )
    args = parser.parse_args()
    client = docker.from_env()
    ensure_base_image(args.base_image)  # realcli's own base is there in every column
    rows: list[tuple[float, float, float]] = []
    for rep in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="realcli-bench-images-") as tmp:
            release, root = _fixture(Path(tmp), uuid.uuid4().hex)
            spec = DockerSpec(
                base_image=args.base_image,
                image_dirs=(str(release),),
                image_aliases={"ghcr.io/laude-institute/t-bench/*": args.base_image},
            )
            logs = Path(tmp) / "logs"
            timings, tags = [], []
            for step in ("cold", "rerun", "edit"):
                if step == "edit":
                    readme = root / "environment/markdown/README.md"
                    readme.write_text(readme.read_text(encoding="utf-8") + "\nedited\n")
                bundle = load_task(root)
                start = time.monotonic()
                chain = build_task_image(bundle, spec, log_dir=logs)
                timings.append(time.monotonic() - start)
                built = [i.kind for i in chain if i.built]
                expected = {"cold": ["image", "task"], "rerun": [], "edit": ["task"]}[step]
                assert built == expected, (step, built)
                tags += [i.tag for i in chain if i.kind in ("task", "image")]
            for tag in sorted(set(tags), key=lambda t: not t.startswith("realcli-task/")):
                client.images.remove(tag, force=True)
        rows.append((timings[0], timings[1], timings[2]))
        print(f"rep {rep + 1}: cold {rows[-1][0]:.2f}s rerun {rows[-1][1]:.3f}s "
              f"edit {rows[-1][2]:.2f}s", flush=True)  # fmt: skip
    cold = statistics.median(r[0] for r in rows)
    rerun = statistics.median(r[1] for r in rows)
    edit = statistics.median(r[2] for r in rows)
    ratio = statistics.median(r[1] / r[0] for r in rows)
    lines = [
        BEGIN,
        "## Task images for `sandbox=docker`: a cold build against a cache-hit rerun",
        "",
        f"`python bench/images.py --out docs/benchmarks.md --repeat {args.repeat}`, "
        f"{dt.date.today().isoformat()}; the image step (`realcli.sandbox.images."
        "build_task_image`, what a run's sandbox calls) of a LongCLI-Bench-shaped task "
        "(`FROM tb/make-pytest:v0` from a folder shaped like the release's "
        "`longcli_dockerImage/`, the repo of `lc-bugfix-markdown`, one offline RUN); each "
        "repetition cold in both realcli's digest cache and Docker's layer cache (realcli's "
        "own base image is there in every column). Seconds are medians; the ratio is the "
        "median of the per-repetition ratios. The machine was shared with other work.",
        "",
        "| repetitions | cold build s (base Dockerfile + task) | rerun s (nothing changed) "
        "| rerun ÷ cold | one task file changed s |",
        "|---:|---:|---:|---:|---:|",
        f"| {len(rows)} | {cold:.2f} | {rerun:.3f} | {ratio:.1%} | {edit:.2f} |",
        "",
        "Acceptance (issue 13, e): cache hits make a rerun's image step at most 5% of a cold "
        "build. The rerun parses both Dockerfiles, hashes both build contexts, and inspects "
        "three images (realcli's base through the docker CLI, the two built ones through the "
        "API); it builds nothing.",
        END,
    ]
    text = args.out.read_text(encoding="utf-8") if args.out.is_file() else "# Benchmarks\n"
    section = "\n".join(lines)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    args.out.write_text(text, encoding="utf-8")
    print(section)


if __name__ == "__main__":
    main()
