"""OpenClaw's session tailer (:data:`TAILER_JS`): a Node script that runs ``openclaw agent
exec`` and prints each new row of its SQLite session store as one JSON line (see
:mod:`realcli.harness.openclaw`)."""

from __future__ import annotations

__all__ = ["TAILER_FILE", "TAILER_JS"]

TAILER_FILE = "openclaw_tail.mjs"
"""The tailer, in the task folder (read-only at ``/run/realcli/task``)."""

TAILER_JS = r"""// realcli's OpenClaw session tailer (runs inside the sandbox with OpenClaw's Node).
// usage: node --no-warnings openclaw_tail.mjs STATE_DIR -- COMMAND [ARGS...]
// Starts COMMAND and, while it runs, prints every new row of OpenClaw's SQLite session
// stores under STATE_DIR/agents/*/agent/openclaw-agent.sqlite as one JSON line:
//   {"type":"openclaw.transcript"|"openclaw.trajectory","agent","session","seq","event"}
// then, once COMMAND has exited and the stores are drained:
//   {"type":"openclaw.exit","code":C,"signal":S,"stdout":"<COMMAND's stdout>"}
// and exits with COMMAND's status. Read-only: it never writes to a store.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { zstdDecompressSync } from "node:zlib";

const POLL_MS = 150;
const MAX_STDOUT = 16 * 1024 * 1024;
const sep = process.argv.indexOf("--");
if (sep < 3 || sep === process.argv.length - 1) {
  process.stderr.write("usage: openclaw_tail.mjs STATE_DIR -- COMMAND [ARGS...]\n");
  process.exit(2);
}
const stateDir = process.argv[2];
const command = process.argv.slice(sep + 1);
const seen = new Set();
const stores = new Map(); // path -> {db, ino, rowids}
let problems = 0;

function emit(record) {
  process.stdout.write(JSON.stringify(record) + "\n");
}

function problem(message) {
  if (problems++ < 20) emit({ type: "openclaw.tail_error", error: String(message).slice(0, 500) });
}

function databases() {
  const root = `${stateDir}/agents`;
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((agent) => [agent, `${root}/${agent}/agent/openclaw-agent.sqlite`])
    .filter(([, path]) => existsSync(path));
}

function open(path) {
  const ino = statSync(path).ino;
  let store = stores.get(path);
  if (store && store.ino === ino) return store;
  if (store) store.db.close();
  store = { db: new DatabaseSync(path, { readOnly: true }), ino, rowids: {} };
  stores.set(path, store);
  return store;
}

function decode(row) {
  if (typeof row.event_json === "string") return row.event_json;
  const bytes = Buffer.from(row.event_zstd);
  const size = Number(row.event_utf8_bytes);
  return zstdDecompressSync(bytes, { maxOutputLength: size }).toString("utf8");
}

const TABLES = {
  transcript:
    "SELECT rowid AS r, session_id, seq, event_json, event_zstd, event_utf8_bytes " +
    "FROM transcript_events WHERE rowid > ? ORDER BY rowid",
  trajectory:
    "SELECT rowid AS r, session_id, seq, event_json FROM trajectory_runtime_events " +
    "WHERE rowid > ? ORDER BY rowid",
};

function pollTable(agent, store, kind) {
  let rows;
  try {
    rows = store.db.prepare(TABLES[kind]).all(store.rowids[kind] ?? 0);
  } catch (err) {
    if (!/no such table|SQLITE_BUSY|database is locked/i.test(String(err))) problem(err);
    return;
  }
  for (const row of rows) {
    store.rowids[kind] = Math.max(store.rowids[kind] ?? 0, Number(row.r));
    const key = `${kind}\u0000${agent}\u0000${row.session_id}\u0000${row.seq}`;
    if (seen.has(key)) continue;
    let event;
    try {
      event = JSON.parse(decode(row));
    } catch (err) {
      problem(`${kind} ${row.session_id}#${row.seq}: ${err}`);
      continue;
    }
    seen.add(key);
    emit({ type: `openclaw.${kind}`, agent, session: row.session_id, seq: Number(row.seq), event });
  }
}

function poll() {
  for (const [agent, path] of databases()) {
    let store;
    try {
      store = open(path);
    } catch (err) {
      if (!/SQLITE_BUSY|database is locked|unable to open/i.test(String(err))) problem(err);
      continue;
    }
    pollTable(agent, store, "transcript");
    pollTable(agent, store, "trajectory");
  }
}

const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
let stdout = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  if (stdout.length < MAX_STDOUT) stdout += chunk;
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
const timer = setInterval(poll, POLL_MS);
child.on("error", (err) => problem(`cannot start ${command[0]}: ${err}`));
child.on("close", (code, signal) => {
  clearInterval(timer);
  poll();
  setTimeout(() => {
    poll();
    for (const store of stores.values()) store.db.close();
    emit({ type: "openclaw.exit", code, signal, stdout });
    process.exitCode = code ?? 143;
  }, POLL_MS);
});
"""
"""The tailer (see the module docstring); Node 24's ``node:sqlite`` and ``zlib`` zstd."""
