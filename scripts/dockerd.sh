#!/usr/bin/env bash
# Start the Docker daemon the way realcli's security model needs it, if it is not running:
# no bridge, no iptables, no forwarding or masquerading (containers get network "none").
# Idempotent; waits until the daemon answers. Needs root and the docker.io package.
set -euo pipefail
if docker info >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "dockerd.sh: need root to start dockerd (or start it yourself with --bridge=none" \
       "--iptables=false --ip-forward=false --ip-masq=false)" >&2
  exit 1
fi
log=${REALCLI_DOCKERD_LOG:-/var/log/realcli-dockerd.log}
# its own session (setsid): a daemon that outlives the shell, the job or the test session that
# happened to start it (killing that process group must not take dockerd with it)
setsid nohup dockerd --bridge=none --iptables=false --ip-forward=false --ip-masq=false \
  >"$log" 2>&1 < /dev/null &
for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    exit 0
  fi
  sleep 0.5
done
echo "dockerd.sh: dockerd did not answer within 30 s; its log ($log) ends:" >&2
tail -n 20 "$log" >&2
exit 1
