"""The tool-call classifier (realcli.ledger.atomic_ops): shell calls split into atomic ops, GUI
work hidden in shell calls re-attributed, and adversarial input that never raises."""

from __future__ import annotations

import pytest

from realcli.ledger.atomic_ops import (
    MAX_OPS,
    AtomicOp,
    call_command,
    decompose_call,
    display_program,
    shell_ops,
)

G, C = "gui", "cli"


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("gnome-screenshot -f /tmp/s.png", "gnome-screenshot"),
        ("scrot /tmp/s.png", "scrot"),
        ("maim /tmp/s.png", "maim"),
        ("import -window root /tmp/s.png", "import"),
        ("import shot.png", "import"),
        ("xwd -root -out /tmp/s.xwd", "xwd"),
        ("xdotool mousemove 10 20 click 1", "xdotool"),
        ("ydotool click 0xC0", "ydotool"),
        ("xte 'key Return'", "xte"),
        ("wmctrl -a 'Ops Console'", "wmctrl"),
        ("xclip -selection clipboard -o", "xclip"),
        ("xsel --clipboard --output", "xsel"),
        ("xwininfo -root -tree", "xwininfo"),
        ("xprop -root _NET_ACTIVE_WINDOW", "xprop"),
        ("/usr/bin/xdotool key ctrl+s", "xdotool"),
        ('python3 -c "import pyautogui; pyautogui.click(5, 5)"', "pyautogui"),
        ("python -c 'from pynput.mouse import Controller'", "pynput"),
        ("python3 -c 'from PIL import ImageGrab; ImageGrab.grab().save(\"a.png\")'", "ImageGrab"),
        ("python3 -c 'import mss; mss.mss().shot()'", "mss"),
        ("python3 -m pyautogui", "pyautogui"),
        ("python3 -c \"import subprocess; subprocess.run(['xdotool', 'key', 'a'])\"", "xdotool"),
    ],
)
def test_each_display_driving_program_is_gui_work(command: str, program: str) -> None:
    assert shell_ops(command) == [(f"exec: {program}", program, G)]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "cd /app && ls | grep x; echo hi\nxdotool key ctrl+s",
            [
                ("exec: shell", "cd", C),
                ("exec: shell", "ls", C),
                ("exec: shell", "grep", C),
                ("exec: shell", "echo", C),
                ("exec: xdotool", "xdotool", G),
            ],
        ),
        (
            "bash -lc 'xdotool click 1 && gnome-screenshot -f a.png'",
            [("exec: xdotool", "xdotool", G), ("exec: gnome-screenshot", "gnome-screenshot", G)],
        ),
        ("sh -c \"bash -c 'scrot x.png'\"", [("exec: scrot", "scrot", G)]),
        ('eval "wmctrl -l"', [("exec: wmctrl", "wmctrl", G)]),
        (
            "python3 - <<'PY'\nimport pyautogui\npyautogui.press('enter')\nPY\nls out",
            [("exec: pyautogui", "pyautogui", G), ("exec: shell", "ls", C)],
        ),
        (
            # a heredoc body is data, not commands: `import os` in a file is no screen grab
            "cat > a.py <<EOF\nimport os\nimport shot.png\nEOF\npython3 a.py",
            [("exec: shell", "cat", C), ("exec: python", "python3", C)],
        ),
        (
            'echo "$(xdotool getactivewindow)" `wmctrl -l` $((1 + 2))',
            [
                ("exec: xdotool", "xdotool", G),
                ("exec: wmctrl", "wmctrl", G),
                ("exec: shell", "echo", C),
            ],
        ),
        (
            "sudo -u bob timeout 5 env A=1 DISPLAY=:1 nice -n 5 scrot /tmp/x.png 2>&1 >/dev/null",
            [("exec: scrot", "scrot", G)],
        ),
        ("for f in a b; do xdotool type $f; done", [("exec: xdotool", "xdotool", G)]),
        ('python3 <<< "import pyautogui"', [("exec: pyautogui", "pyautogui", G)]),
        ("bash <<< 'wmctrl -l'", [("exec: wmctrl", "wmctrl", G)]),
        (
            "if grep -q ok log; then xclip -o; fi",
            [("exec: shell", "grep", C), ("exec: xclip", "xclip", G)],
        ),
        (
            "(cd x; make) && ls",
            [("exec: shell", "cd", C), ("exec: shell", "make", C), ("exec: shell", "ls", C)],
        ),
        (
            "ls | xargs -I{} xdotool type {}",
            [("exec: shell", "ls", C), ("exec: xdotool", "xdotool", G)],
        ),
        # looking a display tool up, installing it or naming it in text is not driving the display
        (
            "which xclip && command -v xdotool",
            [("exec: shell", "which", C), ("exec: shell", "command", C)],
        ),
        ("apt-get install -y xdotool scrot", [("exec: shell", "apt-get", C)]),
        ("grep -r xdotool notes.md", [("exec: shell", "grep", C)]),
        ("echo 'take a screenshot' # then xdotool", [("exec: shell", "echo", C)]),
        # a quoted '#' is no comment; a comment with a quote in it ends at its newline
        (
            'echo "# header" > f && xdotool key a',
            [("exec: shell", "echo", C), ("exec: xdotool", "xdotool", G)],
        ),
        ("ls # it's done\nscrot a.png", [("exec: shell", "ls", C), ("exec: scrot", "scrot", G)]),
        ("import os", [("exec: shell", "import", C)]),  # a Python line typed into bash
        ("python3 solve.py --board b.json", [("exec: python", "python3", C)]),
        ("bash run.sh", [("exec: shell", "bash", C)]),
    ],
)
def test_compound_commands_carry_one_op_per_simple_command(
    command: str, expected: list[tuple[str, str | None, str]]
) -> None:
    assert shell_ops(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "",
        'echo "unterminated',
        "echo 'never closed && scrot",
        "\\",
        "\x00\x01\xff\ufffd\ud800 junk ;;; ||| &&& <<<",
        "$(" * 5000,
        "`" * 3,
        "a" * 300_000,
        "cat <<EOF\nnever terminated",
        "bash -c " * 50 + "'scrot'",
        ";" * 1000,
    ],
)
def test_adversarial_input_never_raises_and_gives_ops(command: str) -> None:
    ops = shell_ops(command)
    assert 1 <= len(ops) <= MAX_OPS
    assert all(channel in (C, G) and op.startswith("exec: ") for op, _, channel in ops)


def test_unparseable_command_is_one_op_gui_only_if_a_display_program_is_named() -> None:
    assert shell_ops('xdotool type "oops') == [("exec: xdotool", "xdotool", G)]
    assert shell_ops('echo "oops') == [("exec: shell", None, C)]


def test_a_generated_script_is_capped_at_max_ops() -> None:
    assert len(shell_ops("true\n" * 10_000)) == MAX_OPS


def test_display_program_names_the_first_gui_op() -> None:
    assert display_program("which xclip; ls") is None
    assert display_program("ls && xclip -o | scrot") == "xclip"


@pytest.mark.parametrize(
    ("name", "raw", "channel", "atomic_op", "args", "expected"),
    [
        (
            "gui_click",
            "mcp__gui__click",
            G,
            "gui: click",
            {"x": 1, "y": 2},
            [AtomicOp("computer: click", None, G, G)],
        ),
        (
            "gui_screenshot",
            "gui__screenshot",
            G,
            "gui: screenshot",
            {},
            [AtomicOp("computer: screenshot", None, G, G)],
        ),
        (
            "write_file",
            "write_file",
            C,
            "fs: write",
            {"path": "a"},
            [AtomicOp("fs: write", None, C, C)],
        ),
        (
            # the harness already put it on the GUI channel; at tool level it is a shell call
            "shell",
            "exec_command",
            G,
            "gui: via shell (xdotool)",
            {"cmd": ["bash", "-lc", "xdotool key a && ls"]},
            [AtomicOp("exec: xdotool", "xdotool", C, G), AtomicOp("exec: shell", "ls", C, C)],
        ),
        ("shell", "Bash", C, "exec: shell", {}, [AtomicOp("exec: shell", None, C, C)]),
        ("mystery", "mystery", "weird", "", {}, [AtomicOp("other: mystery", None, C, C)]),
    ],
)
def test_decompose_call_gives_tool_level_and_attributed_channels(
    name: str,
    raw: str,
    channel: str,
    atomic_op: str,
    args: dict[str, object],
    expected: list[AtomicOp],
) -> None:
    got = list(decompose_call(name, raw, channel, atomic_op, args))
    assert got == expected
    assert [o.reattributed for o in got] == [o.channel != o.tool_channel for o in expected]


def test_call_command_reads_every_shape_of_shell_arguments() -> None:
    assert call_command({"command": "ls"}) == "ls"
    assert call_command({"cmd": ["bash", "-lc", "ls -l"]}) == "bash -lc 'ls -l'"
    assert call_command({"commands": {"a": 1}}) == '{"a": 1}'
    assert call_command({"path": "x"}) == ""
