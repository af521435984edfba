#!/usr/bin/env bash
# Stops the reference broker on [port] (default 19092) cleanly (SIGTERM, the broker's controlled shutdown);
# data is kept for the next start. Exits 0 if it was not running.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

port="${1:-$REFERENCE_DEFAULT_PORT}"
pidfile="$REFERENCE_STATE/$port/pid"
[ -f "$pidfile" ] || exit 0
pid="$(cat "$pidfile")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid"
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  # Still alive after 30 s: the broker is wedged, so end it.
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
fi
rm -f "$pidfile"
