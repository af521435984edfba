#!/usr/bin/env bash
# Rebuilds and re-records the wire fixtures under test/fixtures/wire (see regenerate.ts). Needs Java, Maven and kcat.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$root/compat-tests/reference/install.sh"
"$root/compat-tests/clients/kcat/install.sh"
cd "$root"
npx tsc -p . >/dev/null || true   # others' unfinished files may not type-check; the compat-tests output is still emitted
node dist/compat-tests/wire/regenerate.js "$@"
