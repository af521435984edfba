#!/usr/bin/env bash
# Stops the reference cluster's three nodes (start-cluster.sh) cleanly, all at once (SIGTERM: each broker's controlled
# shutdown); data is kept for the next start. Exits 0 if it was not running.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

pids=()
for n in 1 2 3; do
  pidfile="$REFERENCE_STATE/cluster/node-$n/pid"
  [ -f "$pidfile" ] || continue
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    pids+=("$pid")
  fi
  rm -f "$pidfile"
done
for _ in $(seq 1 600); do
  alive=0
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
  [ "$alive" = 0 ] && exit 0
  sleep 0.1
done
# Still alive after 60 s (a node waiting for a quorum that has gone): end it.
for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"; done
exit 0
