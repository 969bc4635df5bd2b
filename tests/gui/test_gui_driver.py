"""GuiDriver on a real desktop: each primitive checked by what a Tk probe window received."""

from __future__ import annotations

import subprocess
import time

import pytest
from gui_helpers import Probe, wait_until

from realcli.gui import Desktop, GuiArgumentError, GuiDriver, GuiError
from realcli.gui.driver import encode_png, normalize_keys, png_size

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def driver(desktop: Desktop) -> GuiDriver:
    return GuiDriver(desktop)


def _rgb(png: bytes) -> bytes:
    """Raw RGB pixels of a PNG (the real ImageMagick, not a stand-in on PATH)."""
    return subprocess.run(
        ["/usr/bin/convert", "png:-", "-depth", "8", "rgb:-"], input=png,
        capture_output=True, check=True,
    ).stdout  # fmt: skip


def test_screenshot_is_the_screen_as_png(driver: GuiDriver, probe: Probe) -> None:
    png = driver.screenshot()
    assert png_size(png) == (1280, 800)
    # The stdlib encoder (xwd) and scrot see the same pixels.
    scrot = GuiDriver(driver.desktop, screenshot_method="scrot").screenshot()
    assert png_size(scrot) == (1280, 800)
    ours, theirs = _rgb(png), _rgb(scrot)
    assert len(ours) == 1280 * 800 * 3 and ours == theirs
    # The probe's white canvas is on it.
    x, y = probe.point(10, 10)
    at = (y * 1280 + x) * 3
    assert ours[at : at + 3] == b"\xff\xff\xff"


def test_other_screen_depths_fall_back_to_scrot(gui_available: None) -> None:
    with Desktop(320, 200, depth=16, window_manager=False) as d:
        png = GuiDriver(d).screenshot()
        assert png_size(png) == (320, 200)
        with pytest.raises(GuiError, match="format the encoder does not handle"):
            GuiDriver(d, screenshot_method="xwd").screenshot()


def test_encode_png_round_trips() -> None:
    rgb = bytes(i % 251 for i in range(32 * 24 * 3))
    png = encode_png(32, 24, rgb)
    assert png_size(png) == (32, 24) and _rgb(png) == rgb
    with pytest.raises(ValueError, match="expected"):
        encode_png(32, 24, rgb[:-1])
    with pytest.raises(ValueError, match="not a PNG"):
        png_size(b"GIF89a" + bytes(30))


def test_click_buttons_and_multi_clicks(driver: GuiDriver, probe: Probe) -> None:
    x, y = probe.point(50, 60)
    mark = probe.mark()
    driver.click(x, y)
    driver.click(x, y, "right")
    driver.click(x, y, "middle")
    lines = probe.wait_for(mark, "release 2")
    assert f"press 1 {x} {y}" in lines and f"press 3 {x} {y}" in lines
    assert f"press 2 {x} {y}" in lines
    time.sleep(0.5)  # let Tk's double-click window pass
    mark = probe.mark()
    driver.double_click(x + 100, y)
    assert f"double {x + 100} {y}" in probe.wait_for(mark, "double")
    time.sleep(0.5)
    mark = probe.mark()
    driver.triple_click(x + 200, y)
    assert f"triple {x + 200} {y}" in probe.wait_for(mark, "triple")


def test_move_and_drag(driver: GuiDriver, probe: Probe) -> None:
    x, y = probe.point(300, 200)
    driver.move(x, y)
    location = driver.xdotool("getmouselocation")
    assert location.startswith(f"x:{x} y:{y} ")
    x1, y1 = probe.point(20, 20)
    x2, y2 = probe.point(220, 120)
    time.sleep(0.5)
    mark = probe.mark()
    driver.drag(x1, y1, x2, y2)
    lines = probe.wait_for(mark, "release 1")
    assert lines[0] == f"press 1 {x1} {y1}"
    motions = [line for line in lines if line.startswith("motion1 ")]
    assert len(motions) >= 3 and motions[-1] == f"motion1 {x2} {y2}"
    assert lines[-1] == f"release 1 {x2} {y2}"


def test_scroll_uses_wheel_buttons(driver: GuiDriver, probe: Probe) -> None:
    x, y = probe.point(100, 100)
    mark = probe.mark()
    driver.scroll(x, y, 3)
    driver.scroll(x, y, -2, dx=1)
    driver.scroll(x, y, 0, dx=-1)
    lines = probe.wait_for(mark, "wheel 4 shift")
    presses = [line.split()[1] for line in lines if line.startswith("press ")]
    assert presses == ["5", "5", "5", "4", "4", "5", "4"]
    # X buttons 7 and 6 (right, left): Tk 8.6 reports them as Shift + wheel down/up.
    wheels = [" ".join(line.split()[1:]) for line in lines if line.startswith("wheel ")]
    assert wheels == ["5 plain"] * 3 + ["4 plain"] * 2 + ["5 shift", "4 shift"]


def test_type_unicode_and_cjk_arrives(driver: GuiDriver, probe: Probe) -> None:
    driver.click(*probe.entry)
    driver.keypress("ctrl+a BackSpace End shift+Home BackSpace")
    wait_until(lambda: probe.name() == "probe:", 3, "an empty entry")
    text = "hé 中文输入法 ✓ Ωmega 日本語 한국어\u3000ok\u00a0!"
    driver.type(text)
    wait_until(lambda: probe.name() == f"probe:{text}", 5, "the typed text")
    # Typing more than there are spare keycodes, and repeated characters, in chunks.
    driver.keypress("End shift+Home BackSpace")
    wait_until(lambda: probe.name() == "probe:", 3, "an empty entry")
    long_text = "".join(chr(0x4E00 + i) for i in range(40)) + " 中中文文"
    driver.type(long_text)
    wait_until(lambda: probe.name() == f"probe:{long_text}", 10, "the long CJK text")


def test_keypress_chords_and_aliases(driver: GuiDriver, probe: Probe) -> None:
    driver.click(*probe.entry)
    mark = probe.mark()
    driver.keypress("ctrl+s")
    driver.keypress("enter Escape page_down")
    lines = probe.wait_for(mark, "key Next")
    keys = [line.split()[1] for line in lines if line.startswith("key ")]
    assert keys[:2] == ["Control_L", "s"]
    assert [k for k in keys if k in ("Return", "Escape", "Next")] == ["Return", "Escape", "Next"]
    s_line = next(line for line in lines if line.startswith("key s "))
    assert int(s_line.split()[2]) & 4  # Control held
    assert normalize_keys("Ctrl+Shift+T esc PgDn é") == ["ctrl+shift+T", "Escape", "Page_Down",
                                                          "U00E9"]  # fmt: skip


def test_bad_arguments_are_refused_before_anything_is_sent(driver: GuiDriver, probe: Probe) -> None:
    x, y = probe.point(10, 10)
    driver.move(x, y)
    with pytest.raises(GuiArgumentError, match=r"off-screen: the screen is 1280x800"):
        driver.click(1280, 10)
    with pytest.raises(GuiArgumentError, match="off-screen"):
        driver.drag(10, 10, 10, -1)
    with pytest.raises(GuiArgumentError, match="button must be one of left, middle, right"):
        driver.click(10, 10, "fourth")
    with pytest.raises(GuiArgumentError, match=r"unknown key name\(s\) 'notakey'"):
        driver.keypress("ctrl+a notakey")
    with pytest.raises(GuiArgumentError, match="keys is empty"):
        driver.keypress("  ")
    with pytest.raises(GuiArgumentError, match="control characters U\\+0007"):
        driver.type("bell\x07")
    with pytest.raises(GuiArgumentError, match="dy or dx"):
        driver.scroll(10, 10, 0)
    with pytest.raises(GuiArgumentError, match="within ±50"):
        driver.scroll(10, 10, 51)
    with pytest.raises(GuiArgumentError, match=r"within 0\.\.60"):
        driver.wait(61)
    where = driver.xdotool("getmouselocation")
    assert where.startswith(f"x:{x} y:{y} "), where  # nothing moved


def test_xdotool_errors_carry_stderr(driver: GuiDriver) -> None:
    with pytest.raises(GuiError, match=r"xdotool failed .*: .+"):
        driver.xdotool("getwindowname", "12345")
    started = time.monotonic()
    driver.wait(0.05)
    assert time.monotonic() - started >= 0.05


def test_a_stopped_desktop_is_an_error(gui_available: None) -> None:
    driver = GuiDriver(Desktop(64, 64))
    with pytest.raises(GuiError, match="not running"):
        driver.screenshot()
