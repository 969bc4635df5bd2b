#!/bin/sh
# A whole CLI agent in 30 lines of sh (curl + jq): one `shell` tool, OpenAI Chat Completions.
# Usage: shell_agent.sh BASE_URL MODEL MAX_TURNS   (the task text is in $INSTRUCTION_FILE)
set -eu
url=$1 model=$2 max=$3 msgs=$HOME/messages.json
tools='[{"type":"function","function":{"name":"shell","description":"Run a shell command",
 "parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":["cmd"]}}}]'
jq -n --rawfile task "$INSTRUCTION_FILE" \
  '[{role:"system",content:"You are a coding agent. Use the shell tool."},{role:"user",content:$task}]' >"$msgs"
append() { jq --argjson m "$1" '. + [$m]' "$msgs" >"$msgs.tmp" && mv "$msgs.tmp" "$msgs"; }
turn=0
while [ "$turn" -lt "$max" ]; do
  turn=$((turn + 1))
  jq -n --arg m "$model" --argjson t "$tools" --slurpfile h "$msgs" '{model:$m,messages:$h[0],tools:$t}' |
    curl -sS --fail -H 'Content-Type: application/json' -d @- "$url/chat/completions" >"$HOME/reply.json"
  msg=$(jq -c '.choices[0].message' "$HOME/reply.json")
  append "$msg"
  n=$(printf '%s' "$msg" | jq '.tool_calls // [] | length')
  if [ "$n" -eq 0 ]; then printf '%s\n' "$msg" | jq -r '.content // ""'; exit 0; fi
  i=0
  while [ "$i" -lt "$n" ]; do
    id=$(printf '%s' "$msg" | jq -r ".tool_calls[$i].id")
    cmd=$(printf '%s' "$msg" | jq -r ".tool_calls[$i].function.arguments | fromjson | .cmd")
    code=0 && out=$(sh -c "$cmd" 2>&1) || code=$?
    append "$(jq -n --arg id "$id" --arg out "[exit $code] $out" '{role:"tool",tool_call_id:$id,content:$out}')"
    i=$((i + 1))
  done
done
echo "shell_agent: no answer after $max turns" >&2
exit 3
