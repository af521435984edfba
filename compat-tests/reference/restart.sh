#!/usr/bin/env bash
# Restarts the reference broker on [port], keeping its data and committed offsets.
set -euo pipefail
dir="$(dirname "${BASH_SOURCE[0]}")"
"$dir/stop.sh" "$@"
"$dir/start.sh" "$@"
