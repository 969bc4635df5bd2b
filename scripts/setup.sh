#!/usr/bin/env bash
# Install what realcli needs on a fresh Debian machine: bubblewrap (the local sandbox), npm,
# and a virtualenv with realcli and its pinned dependencies. Idempotent; safe to run again.
# `scripts/setup.sh --agents` also installs every agent CLI at its pinned version
# (`realcli agents install all`: Codex, Claude Code, OpenClaw, Hermes, OpenHands).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
command -v git >/dev/null 2>&1 || need_apt+=(git)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)  # installs the npm agent CLIs
command -v curl >/dev/null 2>&1 || need_apt+=(curl)  # the command harness's example agent
command -v jq >/dev/null 2>&1 || need_apt+=(jq)
# The GUI channel (hybrid tasks): a virtual display, a window manager, input and screenshots,
# clipboard tools, fonts (CJK too) and Tk for the tasks' GUI apps.
for pair in Xvfb:xvfb xdotool:xdotool openbox:openbox xwd:x11-apps xprop:x11-utils \
            scrot:scrot wmctrl:wmctrl xclip:xclip xsel:xsel \
            chromium:chromium; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need_apt+=("${pair##*:}")
done
# ImageMagick by its Debian path: another `convert` earlier on PATH is not ImageMagick
[ -x /usr/bin/convert ] || need_apt+=(imagemagick)
[ -d /usr/share/fonts/opentype/noto ] || need_apt+=(fonts-noto-cjk)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need_apt+=(fonts-dejavu-core)
/usr/bin/python3 -c "import tkinter" >/dev/null 2>&1 || need_apt+=(python3-tk)
# sandbox=docker: the engine (started by scripts/dockerd.sh) and debootstrap for the base image
command -v dockerd >/dev/null 2>&1 || need_apt+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || need_apt+=(debootstrap)
# The real desktop applications hybrid tasks run (scripts/desktop-apps.txt, one package a line)
need_apps=()
while read -r pkg; do
  case "$pkg" in ''|'#'*) continue ;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
    || need_apps+=("$pkg")
done < scripts/desktop-apps.txt
if [ ${#need_apt[@]} -gt 0 ] || [ ${#need_apps[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install: ${need_apt[*]} ${need_apps[*]} (or install them yourself)" >&2
    exit 1
  fi
  apt-get update -qq
  if [ ${#need_apt[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  fi
  if [ ${#need_apps[@]} -gt 0 ]; then  # the apps run without their recommends (smaller)
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${need_apps[@]}" >/dev/null
  fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.realcli-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install -q -e '.[dev]'
  touch "$stamp"
fi
if [ "$(id -u)" -eq 0 ]; then
  bash scripts/dockerd.sh
fi
if [ "${1:-}" = "--agents" ]; then
  .venv/bin/realcli agents install all
fi
echo "setup: ok ($(.venv/bin/realcli --version), $(bwrap --version))"
