#!/usr/bin/env bash
# Builds the Sarama scenario program (versions pinned in go.mod/go.sum) into compat-tests/.cache/go/bin.
# Idempotent: rebuilds only when a Go source or go.mod/go.sum is newer than the binary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${COMPAT_CACHE:-$here/../../.cache}/go"
binary="$cache/bin/sarama-compat"
if [ -x "$binary" ] && [ -z "$(find "$here" -newer "$binary" -type f \( -name "*.go" -o -name go.mod -o -name go.sum \))" ]; then exit 0; fi
mkdir -p "$cache/bin"
cd "$here"
GOPATH="$cache" GOFLAGS=-modcacherw go build -o "$binary" . >&2
