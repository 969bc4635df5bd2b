"""Command-line interface: ``python -m todo <command> ...``."""

from __future__ import annotations

import argparse
import os
import sys

from todo.model import Task
from todo.store import TaskNotFound, TodoStore


def format_task(task: Task) -> str:
    """One line per task: ``[x] 3 Title #tag1 #tag2``."""
    line = f"[{'x' if task.done else ' '}] {task.id} {task.title}"
    for tag in task.tags:
        line += f" #{tag}"
    return line


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="todo", description="A tiny todo list.")
    parser.add_argument(
        "--file",
        default=os.environ.get("TODO_FILE", "todo.json"),
        help="task file (default: $TODO_FILE or ./todo.json)",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    add = sub.add_parser("add", help="add a task")
    add.add_argument("title", nargs="+")
    add.add_argument("--tag", action="append", default=[], help="may be repeated")

    ls = sub.add_parser("list", help="list tasks")
    ls.add_argument("--all", action="store_true", help="include completed tasks")
    ls.add_argument("--tag", help="only tasks with this tag")

    done = sub.add_parser("done", help="mark a task as completed")
    done.add_argument("id", type=int)

    rm = sub.add_parser("rm", help="delete a task")
    rm.add_argument("id", type=int)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    store = TodoStore(args.file)
    try:
        if args.command == "add":
            task = store.add(" ".join(args.title), tags=args.tag)
            store.save()
            print(f"added {task.id}")
        elif args.command == "list":
            for task in store.tasks(include_done=args.all, tag=args.tag):
                print(format_task(task))
        elif args.command == "done":
            store.complete(args.id)
            store.save()
            print(f"completed {args.id}")
        elif args.command == "rm":
            store.remove(args.id)
            store.save()
            print(f"removed {args.id}")
    except TaskNotFound as exc:
        print(f"error: no task with id {exc.args[0]}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
