#!/usr/bin/env bash
# Installs Apache Kafka (broker, tools, clients, Connect) from Maven Central into compat-tests/.cache/kafka-<version>/libs.
# Idempotent: a finished install leaves a .installed marker and later runs return at once.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [ -f "$KAFKA_HOME/.installed" ]; then
  exit 0
fi
command -v mvn >/dev/null || { echo "install.sh: mvn (Maven) is required" >&2; exit 2; }
command -v "$JAVA" >/dev/null || { echo "install.sh: java 17+ is required" >&2; exit 2; }

rm -rf "$KAFKA_HOME"
mkdir -p "$KAFKA_LIBS"
echo "Installing Apache Kafka $KAFKA_VERSION into $KAFKA_HOME ..." >&2
mvn -q -B -f "$COMPAT_DIR/reference/pom.xml" -Dkafka.version="$KAFKA_VERSION" \
  dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$KAFKA_LIBS" >&2
echo "$KAFKA_VERSION" > "$KAFKA_HOME/.installed"
echo "Installed $(ls "$KAFKA_LIBS" | wc -l) jars." >&2
