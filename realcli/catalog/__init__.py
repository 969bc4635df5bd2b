"""Task catalog: load, validate and select task bundles (``tasks/<id>/``)."""

from realcli.catalog.bundle import TaskBundle, load_task
from realcli.catalog.select import discover_tasks, select_tasks

__all__ = ["TaskBundle", "discover_tasks", "load_task", "select_tasks"]
