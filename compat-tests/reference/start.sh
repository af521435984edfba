#!/usr/bin/env bash
# Starts the reference Apache Kafka broker: single-node KRaft (combined broker+controller) on loopback.
#   start.sh [--fresh] [--advertised-port N] [--set key=value]... [port]
# port defaults to 19092; the controller listens on port+1. Storage is formatted once (fixed cluster id) and kept
# across stop/start; --fresh wipes it first. --advertised-port makes the broker name another port in metadata
# (a capture proxy in front of it); --set adds or overrides a server property.
# Prints the bootstrap address (127.0.0.1:<port>) once the broker reports it has started.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

usage="usage: start.sh [--fresh] [--advertised-port N] [--set key=value]... [port]"
fresh=0
port="$REFERENCE_DEFAULT_PORT"
advertised_port=""
overrides=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fresh) fresh=1 ;;
    --advertised-port) advertised_port="${2:?$usage}"; shift ;;
    --set) overrides+=("${2:?$usage}"); shift ;;
    [0-9]*) port="$1" ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
controller_port=$((port + 1))
advertised_port="${advertised_port:-$port}"
state="$REFERENCE_STATE/$port"

"$COMPAT_DIR/reference/install.sh"
kafka_require_install

if [ -f "$state/pid" ] && kill -0 "$(cat "$state/pid")" 2>/dev/null; then
  echo "reference broker already running on 127.0.0.1:$port (pid $(cat "$state/pid"))" >&2
  echo "127.0.0.1:$port"
  exit 0
fi
[ "$fresh" = 1 ] && rm -rf "$state"
mkdir -p "$state/data"
# restart.sh starts the broker again with the same settings.
{ [ -n "$advertised_port" ] && [ "$advertised_port" != "$port" ] && printf '%s\n' --advertised-port "$advertised_port"
  for kv in "${overrides[@]}"; do printf '%s\n' --set "$kv"; done; } > "$state/start-args" || true

# Settings chosen to match gregor's defaults: auto-create on, one partition, replication factor 1 everywhere.
cat > "$state/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$advertised_port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$state/data
auto.create.topics.enable=true
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
# Later lines win when Java loads properties, so overrides simply follow the defaults.
for kv in "${overrides[@]}"; do echo "$kv" >> "$state/server.properties"; done

java_opts=(-Djava.awt.headless=true -Dlog4j2.configurationFile="$KAFKA_LOG4J_SERVER"
  -Xms256m -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError)
# REFERENCE_JAVA_OPTS: system properties a scenario needs (org.apache.kafka.sasl.oauthbearer.allowed.urls).
read -r -a extra_java_opts <<< "${REFERENCE_JAVA_OPTS:-}"
java_opts+=("${extra_java_opts[@]}")

if [ ! -f "$state/data/meta.properties" ]; then
  "$JAVA" "${java_opts[@]}" -Dlog4j2.configurationFile="$KAFKA_LOG4J_TOOLS" -cp "$KAFKA_LIBS/*" \
    kafka.tools.StorageTool format -t "$REFERENCE_CLUSTER_ID" -c "$state/server.properties" >"$state/format.log" 2>&1 \
    || { cat "$state/format.log" >&2; exit 1; }
fi

: > "$state/server.log"
nohup "$JAVA" "${java_opts[@]}" -cp "$KAFKA_LIBS/*" kafka.Kafka "$state/server.properties" \
  >>"$state/server.log" 2>&1 </dev/null &
pid=$!
echo "$pid" > "$state/pid"

# Wait for the broker's own "started" line; give up if the process dies or after two minutes.
for _ in $(seq 1 1200); do
  if grep -q "Kafka Server started" "$state/server.log"; then
    echo "127.0.0.1:$port"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "reference broker exited during start-up; its log:" >&2
    tail -n 40 "$state/server.log" >&2
    rm -f "$state/pid"
    exit 1
  fi
  sleep 0.1
done
echo "reference broker did not start within 120 s; see $state/server.log" >&2
exit 1
