#!/usr/bin/env bash
# Installs the openssl command from Debian when it is missing (the TLS tests make their certificates with it). Idempotent.
set -euo pipefail
if command -v openssl >/dev/null; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q openssl >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q openssl >/dev/null; }
command -v openssl >/dev/null
