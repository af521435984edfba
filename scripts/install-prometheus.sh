#!/usr/bin/env bash
# Installs the Prometheus server from Debian when it is missing (test/e2e/prometheus-scrape.test.ts runs one that
# scrapes gregor's /metrics). Idempotent. Only the binary is used: the test runs it on its own config and data dir.
set -euo pipefail
if command -v prometheus >/dev/null; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
install() { apt-get install -y -q --no-install-recommends prometheus >/dev/null 2>&1; }
install || { apt-get update -q >/dev/null && install; }
command -v prometheus >/dev/null
