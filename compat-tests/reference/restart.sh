#!/usr/bin/env bash
# Restarts the reference broker on [port] (default 19092) with the settings it was started with,
# keeping its data and committed offsets.
set -euo pipefail
dir="$(dirname "${BASH_SOURCE[0]}")"
source "$dir/env.sh"
port="${1:-$REFERENCE_DEFAULT_PORT}"
args=()
if [ -f "$REFERENCE_STATE/$port/start-args" ]; then mapfile -t args < "$REFERENCE_STATE/$port/start-args"; fi
"$dir/stop.sh" "$port"
"$dir/start.sh" "${args[@]}" "$port"
