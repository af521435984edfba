# Sourced by the reference-broker scripts and the tool launchers: where Kafka is installed and kept.
# KAFKA_VERSION is the one place the reference version is chosen (see README.md for why this one).
COMPAT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KAFKA_VERSION="${KAFKA_VERSION:-4.3.1}"
COMPAT_CACHE="${COMPAT_CACHE:-$COMPAT_DIR/.cache}"
KAFKA_HOME="$COMPAT_CACHE/kafka-$KAFKA_VERSION"
KAFKA_LIBS="$KAFKA_HOME/libs"
KAFKA_LOG4J_TOOLS="$COMPAT_DIR/reference/log4j2-tools.xml"
KAFKA_LOG4J_SERVER="$COMPAT_DIR/reference/log4j2-server.xml"
# Broker state (config, data, pid, log) lives per port so two brokers can run side by side.
REFERENCE_STATE="$COMPAT_CACHE/reference"
REFERENCE_DEFAULT_PORT="${REFERENCE_PORT:-19092}"
# A fixed cluster id (base64 of "gregor-compat-01") keeps formatted storage reproducible.
REFERENCE_CLUSTER_ID="Z3JlZ29yLWNvbXBhdC0wMQ"
JAVA="${JAVA:-java}"

kafka_require_install() {
  if [ ! -f "$KAFKA_HOME/.installed" ]; then
    echo "Apache Kafka $KAFKA_VERSION is not installed; run compat-tests/reference/install.sh" >&2
    exit 2
  fi
}
