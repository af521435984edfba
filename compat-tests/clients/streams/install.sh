#!/usr/bin/env bash
# Installs Kafka Streams from Maven Central into compat-tests/.cache/streams-<version>/libs for WordCount.java.
# Idempotent: a finished install leaves a .installed marker and later runs return at once.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../reference/env.sh"
STREAMS_HOME="$COMPAT_CACHE/streams-$KAFKA_VERSION"
if [ -f "$STREAMS_HOME/.installed" ]; then exit 0; fi
command -v mvn >/dev/null || { echo "streams/install.sh: mvn (Maven) is required" >&2; exit 2; }
rm -rf "$STREAMS_HOME"
mkdir -p "$STREAMS_HOME/libs"
echo "Installing Kafka Streams $KAFKA_VERSION into $STREAMS_HOME ..." >&2
mvn -q -B -f "$here/pom.xml" -Dkafka.version="$KAFKA_VERSION" \
  dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$STREAMS_HOME/libs" >&2
echo "$KAFKA_VERSION" > "$STREAMS_HOME/.installed"
