#!/usr/bin/env bash
# Builds the benchmark's load generator (franz-go, versions pinned in go.mod/go.sum) into bench/.cache/bin/loadgen.
# Shares the compat matrix's Go module cache (same franz-go versions), so a machine that ran the matrix downloads
# nothing. Idempotent: rebuilds only when a Go source or go.mod/go.sum is newer than the binary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gocache="${COMPAT_CACHE:-$here/../../compat-tests/.cache}/go"
binary="$here/../.cache/bin/loadgen"
if [ -x "$binary" ] && [ -z "$(find "$here" -newer "$binary" -type f \( -name "*.go" -o -name go.mod -o -name go.sum \))" ]; then exit 0; fi
mkdir -p "$(dirname "$binary")" "$gocache"
cd "$here"
GOPATH="$gocache" GOFLAGS=-modcacherw go build -trimpath -o "$binary" . >&2
