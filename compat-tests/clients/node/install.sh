#!/usr/bin/env bash
# Installs the pinned Node clients (package.json / package-lock.json here) into ./node_modules with npm ci.
# Idempotent: skips when the installed lock file matches the committed one.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
if [ -f node_modules/.package-lock.json ] && [ -f node_modules/.installed-lock ] && cmp -s package-lock.json node_modules/.installed-lock; then exit 0; fi
npm ci --no-audit --no-fund --loglevel=error >&2
cp package-lock.json node_modules/.installed-lock
