#!/usr/bin/env bash
# Installs etcd (the server and etcdctl) from Debian's etcd-server when the `etcd` command is missing: the cluster
# tests (test/e2e/cluster-*) and `gregor cluster` run a real etcd on loopback. Idempotent.
set -euo pipefail
if command -v etcd >/dev/null; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends etcd-server >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends etcd-server >/dev/null; }
command -v etcd >/dev/null
