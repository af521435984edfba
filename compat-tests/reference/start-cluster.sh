#!/usr/bin/env bash
# Starts the reference Apache Kafka cluster: three KRaft nodes on loopback, each broker and controller (a three-voter
# quorum), beside the single-node reference (19092/19093) without touching it.
#   start-cluster.sh [--fresh] [--set key=value]...
# Node N (1-3) listens on PLAINTEXT 127.0.0.1:1950N, SASL_PLAINTEXT 127.0.0.1:1951N (SCRAM-SHA-256 and SCRAM-SHA-512,
# users added with kafka-configs) and CONTROLLER 127.0.0.1:1952N. Storage is formatted once (a fixed cluster id) under
# compat-tests/.cache/reference/cluster/node-N and kept across stop-cluster.sh/start-cluster.sh; --fresh wipes it first.
# --set adds or overrides a server property on every node (kept for the next start without --set). Prints the
# PLAINTEXT bootstrap list once every node reports it has started.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

usage="usage: start-cluster.sh [--fresh] [--set key=value]..."
fresh=0
overrides=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fresh) fresh=1 ;;
    --set) overrides+=("${2:?$usage}"); shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
NODES=(1 2 3)
cluster_state="$REFERENCE_STATE/cluster"
# base64 of "gregor-cluster-1": not the single node's id, so neither can join the other.
cluster_id="Z3JlZ29yLWNsdXN0ZXItMQ"
voters="1@127.0.0.1:19521,2@127.0.0.1:19522,3@127.0.0.1:19523"
bootstrap="127.0.0.1:19501,127.0.0.1:19502,127.0.0.1:19503"

"$COMPAT_DIR/reference/install.sh"
kafka_require_install

running=0
for n in "${NODES[@]}"; do
  pidfile="$cluster_state/node-$n/pid"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then running=$((running + 1)); fi
done
if [ "$running" = 3 ]; then
  echo "reference cluster already running" >&2
  echo "$bootstrap"
  exit 0
fi
if [ "$running" != 0 ]; then
  echo "reference cluster partly running ($running of 3 nodes): run stop-cluster.sh first" >&2
  exit 1
fi
[ "$fresh" = 1 ] && rm -rf "$cluster_state"
mkdir -p "$cluster_state"
# --set values are kept for the next start; a start with --set replaces them.
if [ "${#overrides[@]}" -gt 0 ] || [ "$fresh" = 1 ]; then printf '%s\n' "${overrides[@]}" > "$cluster_state/overrides"; fi
[ -f "$cluster_state/overrides" ] && mapfile -t overrides < "$cluster_state/overrides"

java_opts=(-Djava.awt.headless=true -Dlog4j2.configurationFile="$KAFKA_LOG4J_SERVER"
  -Xms128m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError)
read -r -a extra_java_opts <<< "${REFERENCE_JAVA_OPTS:-}"
java_opts+=("${extra_java_opts[@]}")
SCRAM="org.apache.kafka.common.security.scram.ScramLoginModule required;"

for n in "${NODES[@]}"; do
  state="$cluster_state/node-$n"
  mkdir -p "$state/data"
  # Kafka's defaults (replication factor 3 for the internal topics), auto-create on, one partition per new topic.
  cat > "$state/server.properties" <<PROPS
process.roles=broker,controller
node.id=$n
controller.quorum.voters=$voters
listeners=PLAINTEXT://127.0.0.1:1950$n,SASL_PLAINTEXT://127.0.0.1:1951$n,CONTROLLER://127.0.0.1:1952$n
advertised.listeners=PLAINTEXT://127.0.0.1:1950$n,SASL_PLAINTEXT://127.0.0.1:1951$n
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT
sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=$SCRAM
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=$SCRAM
log.dirs=$state/data
auto.create.topics.enable=true
num.partitions=1
group.initial.rebalance.delay.ms=0
PROPS
  for kv in "${overrides[@]}"; do [ -n "$kv" ] && echo "$kv" >> "$state/server.properties"; done
  if [ ! -f "$state/data/meta.properties" ]; then
    "$JAVA" "${java_opts[@]}" -Dlog4j2.configurationFile="$KAFKA_LOG4J_TOOLS" -cp "$KAFKA_LIBS/*" \
      kafka.tools.StorageTool format -t "$cluster_id" -c "$state/server.properties" >"$state/format.log" 2>&1 \
      || { cat "$state/format.log" >&2; exit 1; }
  fi
  : > "$state/server.log"
  nohup "$JAVA" "${java_opts[@]}" -cp "$KAFKA_LIBS/*" kafka.Kafka "$state/server.properties" \
    >>"$state/server.log" 2>&1 </dev/null &
  echo $! > "$state/pid"
done

# Every node's own "started" line (a node starts once the quorum has a leader); three minutes at most.
for _ in $(seq 1 1800); do
  started=0
  for n in "${NODES[@]}"; do
    state="$cluster_state/node-$n"
    if ! kill -0 "$(cat "$state/pid")" 2>/dev/null; then
      echo "reference node $n exited during start-up; its log:" >&2
      tail -n 40 "$state/server.log" >&2
      "$COMPAT_DIR/reference/stop-cluster.sh"
      exit 1
    fi
    grep -q "Kafka Server started" "$state/server.log" && started=$((started + 1))
  done
  if [ "$started" = 3 ]; then
    echo "$bootstrap"
    exit 0
  fi
  sleep 0.1
done
echo "reference cluster did not start within 180 s; see $cluster_state/node-N/server.log" >&2
"$COMPAT_DIR/reference/stop-cluster.sh"
exit 1
