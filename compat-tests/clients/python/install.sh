#!/usr/bin/env bash
# Creates compat-tests/.cache/py/venv with the pinned Python clients. Idempotent: reinstalls only when
# requirements.txt changed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${COMPAT_CACHE:-$here/../../.cache}/py"
venv="$cache/venv"
stamp="$cache/requirements.installed"
if [ -x "$venv/bin/python" ] && cmp -s "$here/requirements.txt" "$stamp"; then exit 0; fi
mkdir -p "$cache"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt" >&2
cp "$here/requirements.txt" "$stamp"
