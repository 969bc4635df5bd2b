# ruff: noqa: E501  (templates: the files they write keep their own line lengths)
"""The application templates of ``realcli tasks new --app``: the ``[[gui.apps]]`` block and
the files it needs, for a placeholder Tk window (``tk``) or the real LibreOffice Calc from a
frozen profile (``calc``: the profile of the shipped Calc tasks and an empty workbook)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["APPS", "AppTemplate"]


@dataclass(frozen=True)
class AppTemplate:
    toml: str
    """The ``[[gui.apps]]`` block (``{id}`` is the task id; braces doubled)."""
    files: dict[str, str]
    """Bundle-relative path -> content."""


_TK_TOML = """# The application the agent works in, in a sandbox of its own that shares only the display.
# A real application (docs/weave.md#real-applications): `realcli tasks new --app calc`.
[[gui.apps]]
name = "app"
argv = ["/usr/bin/python3", "{{app}}/app.py"]
window = "^{id}$"  # a regex on the window title realcli waits for
files = "gui_app"  # environment/gui_app/: never visible to the agent
workspace = false  # true: the app sees the agent's workspace read-only (P3 link)
"""

_TK_APP = '''"""TODO: replace with the task's application (or start a real one: task.toml)."""

import tkinter

root = tkinter.Tk()
root.title("{id}")
root.geometry("640x360")
tkinter.Label(root, text="TODO: the state the agent must read", font=("DejaVu Sans", 18)).pack(
    expand=True
)
root.mainloop()
'''

_CALC_TOML = """# The real LibreOffice Calc (scripts/desktop-apps.txt) from a frozen profile: every run copies
# environment/profile/ (settings without first-start dialogs, tips, autosave or recovery, and
# the workbook) to a writable /run/realcli/profile. docs/weave.md#real-applications
[[gui.apps]]
name = "calc"
argv = ["/usr/bin/soffice", "--calc", "--norestore", "--nologo", "--nolockcheck",
        "-env:UserInstallation=file://{{profile}}", "{{profile}}/book.fods"]
window = "book.fods - LibreOffice Calc"  # a regex on the window title realcli waits for
profile = "profile"
workspace = false  # true: Calc can open the agent's files read-only at /run/realcli/workspace
env = {{ HOME = "{{profile}}", LANG = "C.UTF-8", SAL_USE_VCLPLUGIN = "gen" }}
system_paths = ["/etc/fonts", "/var/cache/fontconfig", "/etc/libreoffice"]
start_s = 120
"""

_BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"
 office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet>
<table:table table:name="TODO">
<table:table-row><table:table-cell office:value-type="string"><text:p>TODO: the state only Calc holds</text:p></table:table-cell></table:table-row>
</table:table>
</office:spreadsheet></office:body></office:document>
"""

_PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<!-- The frozen LibreOffice profile (docs/weave.md, "Freezing a profile"), written by
     `realcli tasks new --app calc`: copied for every run to /run/realcli/profile/user. Only
     what makes every run start the same and keeps dialogs out of the agent's way;
     LibreOffice fills in the rest. -->
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<!-- no first-start wizard, no tip of the day, no what's-new / get-involved / donate infobars -->
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Setup/Office"><prop oor:name="FirstStartWizardCompleted" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>7.4</value></prop></item>
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="LastTimeGetInvolvedShown" oor:op="fuse"><value>4102444800</value></prop></item>
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="LastTimeDonateShown" oor:op="fuse"><value>4102444800</value></prop></item>
<!-- no autosave, no document recovery prompt, no update check -->
<item oor:path="/org.openoffice.Office.Recovery/AutoSave"><prop oor:name="Enabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Recovery/RecoveryInfo"><prop oor:name="Enabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="CreateBackup" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Jobs/Jobs/org.openoffice.Office.Jobs:Job['UpdateCheck']/Arguments"><prop oor:name="AutoCheckEnabled" oor:op="fuse"><value>false</value></prop></item>
<!-- LibreOffice's own file dialogs (typed paths work the same everywhere); no macros -->
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseSystemFileDialog" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<!-- no recent-documents list (it would name the app's files) -->
<item oor:path="/org.openoffice.Office.Common/History"><prop oor:name="PickListSize" oor:op="fuse"><value>0</value></prop></item>
<!-- en-US everywhere: menus, number formats (decimal point), the clipboard's numbers -->
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooLocale" oor:op="fuse"><value>en-US</value></prop></item>
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>en-US</value></prop></item>
</oor:items>
"""

APPS = {
    "tk": AppTemplate(_TK_TOML, {"environment/gui_app/app.py": _TK_APP}),
    "calc": AppTemplate(
        _CALC_TOML,
        {
            "environment/profile/user/registrymodifications.xcu": _PROFILE,
            "environment/profile/book.fods": _BOOK,
        },
    ),
}
