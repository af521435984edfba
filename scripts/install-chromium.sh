#!/usr/bin/env bash
# Installs Debian's chromium when it is missing (the console's browser tests drive it with playwright-core). Idempotent.
set -euo pipefail
if command -v chromium >/dev/null; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }
command -v chromium >/dev/null
