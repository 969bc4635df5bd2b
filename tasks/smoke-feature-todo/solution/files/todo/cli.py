"""Command-line interface: ``python -m todo <command> ...``."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from pathlib import Path

from todo.model import PRIORITIES, Task, parse_due
from todo.store import TaskNotFound, TodoStore


def format_task(task: Task) -> str:
    """One line per task: ``[x] 3 Title #tag1 #tag2 due:2024-05-01 !high``.

    The due date is shown only when set, the priority only when it is not ``normal``.
    """
    line = f"[{'x' if task.done else ' '}] {task.id} {task.title}"
    for tag in task.tags:
        line += f" #{tag}"
    if task.due is not None:
        line += f" due:{task.due.isoformat()}"
    if task.priority != "normal":
        line += f" !{task.priority}"
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
    add.add_argument("--priority", choices=PRIORITIES, default="normal")
    add.add_argument("--due", metavar="YYYY-MM-DD", help="due date")

    ls = sub.add_parser("list", help="list tasks")
    ls.add_argument("--all", action="store_true", help="include completed tasks")
    ls.add_argument("--tag", help="only tasks with this tag")
    ls.add_argument("--sort", choices=("id", "priority"), default="id")
    ls.add_argument("--due-before", metavar="YYYY-MM-DD", help="only tasks due on or before")

    done = sub.add_parser("done", help="mark a task as completed")
    done.add_argument("id", type=int)

    rm = sub.add_parser("rm", help="delete a task")
    rm.add_argument("id", type=int)

    prio = sub.add_parser("prio", help="change the priority of a task")
    prio.add_argument("id", type=int)
    prio.add_argument("priority", choices=PRIORITIES)

    overdue = sub.add_parser("overdue", help="list pending tasks due before today")
    overdue.add_argument("--today", metavar="YYYY-MM-DD", help="default: the current date")

    export = sub.add_parser("export", help="export tasks as JSON")
    export.add_argument("--pending", action="store_true", help="leave out completed tasks")
    export.add_argument("--output", metavar="PATH", help="write to PATH instead of stdout")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    store = TodoStore(args.file)
    try:
        if args.command == "add":
            task = store.add(
                " ".join(args.title), tags=args.tag, priority=args.priority, due=args.due
            )
            store.save()
            print(f"added {task.id}")
        elif args.command == "list":
            tasks = store.tasks(
                include_done=args.all,
                tag=args.tag,
                sort=args.sort,
                due_before=parse_due(args.due_before),
            )
            for task in tasks:
                print(format_task(task))
        elif args.command == "done":
            store.complete(args.id)
            store.save()
            print(f"completed {args.id}")
        elif args.command == "rm":
            store.remove(args.id)
            store.save()
            print(f"removed {args.id}")
        elif args.command == "prio":
            store.set_priority(args.id, args.priority)
            store.save()
            print(f"updated {args.id}")
        elif args.command == "overdue":
            today = parse_due(args.today) or date.today()
            for task in store.overdue(today):
                print(format_task(task))
        elif args.command == "export":
            text = store.export_json(include_done=not args.pending)
            if args.output:
                Path(args.output).write_text(text + "\n", encoding="utf-8")
                count = len(store.tasks(include_done=not args.pending))
                print(f"exported {count} tasks to {args.output}")
            else:
                print(text)
    except TaskNotFound as exc:
        print(f"error: no task with id {exc.args[0]}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
