"""A Tk probe window for the GUI tests: reports every input event on stdout, one per line.

Run with the system Python (it has tkinter): ``/usr/bin/python3 -u probe.py [TITLE]``.
Lines: ``ready <canvas_x> <canvas_y> <entry_x> <entry_y>`` (screen coordinates of the
canvas's top left corner and the entry's centre), then ``press <button> <x> <y>``,
``release <button> <x> <y>``, ``wheel <4|5> <shift|plain>``, ``double <x> <y>``,
``triple <x> <y>``, ``motion1 <x> <y>`` (with button 1 held), ``key <keysym> <state>``,
``entry <text>``. Coordinates are screen coordinates. The window title is ``<TITLE>:<entry text>``.
"""

import sys
import tkinter as tk

title = sys.argv[1] if len(sys.argv) > 1 else "probe"
root = tk.Tk()
root.title(title + ":")
root.geometry("640x420+40+40")
text = tk.StringVar()
entry = tk.Entry(root, textvariable=text, font=("Noto Sans CJK SC", 14))
entry.pack(fill="x")
canvas = tk.Canvas(root, width=640, height=380, background="white", highlightthickness=0)
canvas.pack(fill="both", expand=True)


def say(*parts):
    print(*parts, flush=True)


def on_text(*_):
    root.title(title + ":" + text.get())
    say("entry", text.get())


text.trace_add("write", on_text)


def on_press(e):
    say("press", e.num, e.x_root, e.y_root)
    if e.num in (4, 5):  # Tk 8.6 reports X buttons 6/7 (horizontal wheel) as Shift-4/5
        say("wheel", e.num, "shift" if e.state & 1 else "plain")


canvas.bind("<ButtonPress>", on_press)
canvas.bind("<ButtonRelease>", lambda e: say("release", e.num, e.x_root, e.y_root))
canvas.bind("<Double-ButtonPress-1>", lambda e: say("double", e.x_root, e.y_root))
canvas.bind("<Triple-ButtonPress-1>", lambda e: say("triple", e.x_root, e.y_root))
canvas.bind("<B1-Motion>", lambda e: say("motion1", e.x_root, e.y_root))
root.bind_all("<Key>", lambda e: say("key", e.keysym, e.state))


def ready():
    root.update_idletasks()
    ex = entry.winfo_rootx() + entry.winfo_width() // 2
    ey = entry.winfo_rooty() + entry.winfo_height() // 2
    say("ready", canvas.winfo_rootx(), canvas.winfo_rooty(), ex, ey)
    entry.focus_force()


root.after(200, ready)
root.mainloop()
