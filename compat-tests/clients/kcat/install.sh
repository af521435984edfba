#!/usr/bin/env bash
# Installs kcat (librdkafka's command-line client) from Debian. Idempotent.
set -euo pipefail
if command -v kcat >/dev/null; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q kcat >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q kcat >/dev/null; }
command -v kcat >/dev/null
