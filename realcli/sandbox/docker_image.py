"""The sandbox factory of a run: ``local`` as it is, ``docker`` with the task's image.

Every sandbox a run makes (setup, the agent, GUI apps, grading in a fresh container, the
test inventory) comes from the one factory :func:`sandbox_factory` returns, so each gets the
task's image; the image is resolved (built when needed) on first use, once per run.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

from realcli.sandbox.base import Sandbox, SandboxOptions

__all__ = ["sandbox_factory", "task_image"]


def task_image(bundle: Any, docker: Any) -> str:
    """The local image tag a task runs in under ``sandbox=docker`` (built if needed).

    ``bundle`` is a :class:`realcli.catalog.TaskBundle`, ``docker`` the run's
    :class:`realcli.schema.run_spec.DockerSpec`. Built by :mod:`realcli.sandbox.images`
    (the task's ``environment.dockerfile`` over the base image) when that module is there;
    else the task's ``environment.image`` or the base image.
    """
    try:
        from realcli.sandbox.images import task_image as build
    except ImportError:
        from realcli.sandbox.docker_base import ensure_base_image

        environment = getattr(getattr(bundle, "spec", None), "environment", None)
        image = getattr(environment, "image", None)
        return str(image) if image else ensure_base_image(docker.base_image)
    return str(build(bundle, docker))


class _DockerFactory:
    def __init__(self, bundle: Any, docker: Any) -> None:
        from realcli.sandbox.docker_client import use_daemon

        self._bundle, self._docker = bundle, docker
        use_daemon(getattr(docker, "socket", None))
        self._image: str | None = None
        self._lock = threading.Lock()

    def image(self) -> str:
        with self._lock:
            if self._image is None:
                self._image = task_image(self._bundle, self._docker)
            return self._image

    def __call__(self, options: SandboxOptions) -> Sandbox:
        from realcli.sandbox import make_sandbox

        if options.image is None:
            options = dataclasses.replace(options, image=self.image())
        return make_sandbox("docker", options)


def sandbox_factory(sandbox: Any, bundle: Any) -> Callable[[SandboxOptions], Sandbox]:
    """``make_sandbox`` for a run of ``bundle`` with the run's ``sandbox`` spec
    (:class:`realcli.schema.run_spec.SandboxSpec`)."""
    if sandbox.kind == "docker":
        return _DockerFactory(bundle, sandbox.docker)
    from functools import partial

    from realcli.sandbox import make_sandbox

    return partial(make_sandbox, sandbox.kind)
