"""A tiny todo-list library: :class:`TodoStore` keeps :class:`Task` objects in a JSON file."""

from todo.model import Task
from todo.store import TaskNotFound, TodoStore

__all__ = ["Task", "TaskNotFound", "TodoStore"]

__version__ = "0.4.0"
