#!/bin/sh
# Start the dev server and Chromium on the tester's frozen profile ({profile}/chromium: her
# 1.x drafts in Local Storage); stop the server when the browser exits.
APP=$(dirname "$(readlink -f "$0")")
PORT=${WEB_PORT:-8432}
PROFILE=${BROWSER_PROFILE:?BROWSER_PROFILE is the per-run profile copy}
export XDG_CONFIG_HOME="$PROFILE/config" XDG_CACHE_HOME="$PROFILE/cache"
/usr/bin/python3 "$APP/devserver.py" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT INT TERM
i=0
until /usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 0.2)" 2>/dev/null; do
  i=$((i + 1)); [ $i -gt 50 ] && break; sleep 0.1
done
CHROMIUM=/usr/lib/chromium/chromium
[ -x "$CHROMIUM" ] || CHROMIUM=chromium
"$CHROMIUM" --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
  --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
  --disable-dev-shm-usage --disable-features=Translate,MediaRouter --password-store=basic \
  --user-data-dir="$PROFILE/chromium" --test-type --window-position=0,0 --window-size=1024,768 \
  --app="http://127.0.0.1:$PORT/"
