"""GuiService: the ten tools, argument validation, screenshots saved, hashed and reported."""

from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path

import jsonschema
import pytest
from gui_helpers import Probe, wait_until

from realcli.gui import GUI_TOOLS, Desktop, GuiArgumentError, GuiDriver, GuiService
from realcli.gui.driver import png_size
from realcli.schema.events import EventAdapter, ScreenshotEvent

pytestmark = pytest.mark.gui

TOOL_NAMES = [
    "screenshot", "click", "double_click", "triple_click", "move", "drag", "scroll", "type",
    "keypress", "wait",
]  # fmt: skip


@pytest.fixture
def events() -> list[ScreenshotEvent]:
    return []


@pytest.fixture
def service(desktop: Desktop, tmp_path: Path, events: list[ScreenshotEvent]) -> GuiService:
    run_dir = tmp_path / "run"
    return GuiService(GuiDriver(desktop), run_dir / "screenshots", run_dir, events.append)


def test_the_ten_tools_and_their_schemas(service: GuiService) -> None:
    assert list(GUI_TOOLS) == TOOL_NAMES
    tools = service.tools()
    assert [t["name"] for t in tools] == TOOL_NAMES
    for tool in tools:
        assert tool["description"] and set(tool) == {"name", "description", "input_schema"}
        jsonschema.Draft202012Validator.check_schema(tool["input_schema"])
        assert tool["input_schema"]["additionalProperties"] is False
    click = next(t for t in tools if t["name"] == "click")["input_schema"]
    assert click["required"] == ["x", "y"]
    assert click["properties"]["x"]["maximum"] == 1279
    assert click["properties"]["y"]["maximum"] == 799
    assert "maximum" not in GUI_TOOLS["click"]["input_schema"]["properties"]["x"]  # not mutated


def test_screenshot_is_saved_hashed_and_reported(
    service: GuiService, events: list[ScreenshotEvent]
) -> None:
    first = service.call("screenshot", {}, call_id="call_1")
    second = service.call("screenshot")
    assert first.ok and first.png is not None and second.png is not None
    assert png_size(first.png) == (1280, 800)
    assert len(events) == 2
    event = events[0]
    digest = hashlib.sha256(first.png).hexdigest()
    assert event.sha256 == digest and event.call_id == "call_1" and events[1].call_id is None
    assert (event.width, event.height, event.bytes) == (1280, 800, len(first.png))
    assert event.source == "gui.screenshot" and event.seq == 0
    assert event.path == f"screenshots/0001-{digest[:8]}.png"
    assert (service.run_dir / event.path).read_bytes() == first.png
    assert re.fullmatch(r"screenshots/0002-[0-9a-f]{8}\.png", events[1].path)
    assert first.text == f"screenshot 1280x800 PNG, {len(first.png)} bytes, sha256 {digest[:12]}"
    # It is a ledger event like any other.
    assert EventAdapter.validate_json(event.model_dump_json()) == event
    # A second service on the same run folder numbers on (e.g. the next round).
    again = GuiService(service.driver, service.screenshots_dir, service.run_dir, events.append)
    again.call("screenshot")
    assert events[-1].path.startswith("screenshots/0003-")


def test_actions_return_short_texts(service: GuiService, probe: Probe) -> None:
    x, y = probe.point(30, 30)
    assert service.validate("move", {"x": 3.0, "y": 4}) == {"x": 3, "y": 4}
    assert service.call("move", {"x": x, "y": y}).text == f"moved the mouse to ({x}, {y})"
    assert service.call("click", {"x": x, "y": y, "button": "right"}).text == (
        f"clicked right at ({x}, {y})"
    )
    assert service.call("scroll", {"x": x, "y": y, "dy": -2, "dx": 1}).text == (
        f"scrolled 2 up and 1 right at ({x}, {y})"
    )
    assert service.call("wait", {"seconds": 0.01}).text == "waited 0.01 s"
    service.call("click", {"x": probe.entry[0], "y": probe.entry[1]})
    service.call("keypress", {"keys": "End shift+Home BackSpace"})
    result = service.call("type", {"text": "服务 ok"})
    assert result.ok and result.text == "typed 5 characters" and result.png is None
    wait_until(lambda: probe.name() == "probe:服务 ok", 5, "the typed text")


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("click", {"x": 5}, "click: bad arguments: 'y' is a required property"),
        ("click", {"x": 5, "y": 5, "z": 1}, "Additional properties are not allowed"),
        ("click", {"x": "5", "y": 5}, "x: '5' is not of type 'integer'"),
        ("click", {"x": True, "y": 5}, "x: True is not of type 'integer'"),
        ("click", {"x": 1280, "y": 5}, "x: 1280 is greater than the maximum of 1279"),
        ("drag", {"x1": 0, "y1": 0, "x2": 0, "y2": -1}, "y2: -1 is less than the minimum of 0"),
        ("click", {"x": 5, "y": 5, "button": "back"}, "button: 'back' is not one of"),
        ("type", {"text": ""}, "text: '' should be non-empty"),
        ("type", {"text": "x" * 4001}, "x ... xx' is too long"),
        ("keypress", {"keys": "ctrl+nokey"}, "unknown key name(s) 'nokey'"),
        ("wait", {"seconds": 61}, "seconds: 61 is greater than the maximum of 60"),
        ("scroll", {"x": 5, "y": 5, "dy": 0}, "scroll needs dy or dx"),
        ("zoom", {}, "no GUI tool named 'zoom'; the tools are: screenshot, click"),
        ("click", [1, 2], "click: arguments must be a JSON object, got list"),
    ],
)
def test_bad_arguments_raise_a_clear_error(
    service: GuiService, name: str, args: object, message: str
) -> None:
    with pytest.raises(GuiArgumentError) as info:
        service.call(name, args)
    assert message in str(info.value)


def test_a_failing_action_is_a_failed_result(tmp_path: Path, gui_available: None) -> None:
    stopped = Desktop(64, 48)
    service = GuiService(GuiDriver(stopped), tmp_path / "shots", tmp_path, lambda e: None)
    result = service.call("click", {"x": 1, "y": 1})
    assert not result.ok and result.text == "click failed: the desktop is not running"
    assert not service.call("screenshot").ok
    with pytest.raises(ValueError, match="not inside run_dir"):
        GuiService(GuiDriver(stopped), tmp_path / "shots", tmp_path / "other", lambda e: None)
    with pytest.raises(GuiArgumentError, match="call_id"):
        service.call("wait", {"seconds": 0}, call_id="bad id with spaces")


def test_a_failing_ledger_does_not_fail_the_tool(desktop: Desktop, tmp_path: Path) -> None:
    def broken(event: ScreenshotEvent) -> None:
        raise OSError("disk full")

    service = GuiService(GuiDriver(desktop), tmp_path / "screenshots", tmp_path, broken)
    assert service.call("screenshot").ok
    assert service.callback_errors == ["OSError: disk full"]


def test_concurrent_calls_run_one_at_a_time(
    service: GuiService, events: list[ScreenshotEvent]
) -> None:
    results = []

    def shoot() -> None:
        results.append(service.call("screenshot"))

    threads = [threading.Thread(target=shoot) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 4 and all(r.ok for r in results)
    numbers = sorted(int(Path(e.path).name[:4]) for e in events)
    assert numbers == [1, 2, 3, 4]
    assert len(list(service.screenshots_dir.glob("*.png"))) == 4


def test_save_as_never_writes_through_an_agent_link(
    desktop: Desktop, tmp_path: Path, events: list[ScreenshotEvent]
) -> None:
    """The agent plants links where its screenshot will be saved (a file link, a folder link
    to a host folder): the PNG replaces the file link and never lands outside the workspace
    (writes are fd-relative, ``O_NOFOLLOW``: realcli.util.safe_fs)."""
    run_dir, workspace, outside = tmp_path / "run", tmp_path / "ws", tmp_path / "host"
    workspace.mkdir()
    outside.mkdir()
    (outside / "ledger.jsonl").write_text("host file")
    (workspace / "shot.png").symlink_to(outside / "ledger.jsonl")
    (workspace / "out").symlink_to(outside)
    service = GuiService(
        GuiDriver(desktop), run_dir / "screenshots", run_dir, events.append, workspace=workspace
    )
    saved = service.call("screenshot", {"save_as": "/app/shot.png"})
    assert saved.ok and saved.png is not None
    assert not (workspace / "shot.png").is_symlink()
    assert (workspace / "shot.png").read_bytes() == saved.png
    assert (outside / "ledger.jsonl").read_text() == "host file"
    with pytest.raises(GuiArgumentError, match=r"cannot save as 'out/x\.png'"):
        service.call("screenshot", {"save_as": "out/x.png"})
    with pytest.raises(GuiArgumentError, match="must be a file inside"):
        service.call("screenshot", {"save_as": "sub/../../x.png"})
    assert sorted(p.name for p in outside.iterdir()) == ["ledger.jsonl"]
