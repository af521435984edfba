#!/usr/bin/env bash
# Installs every compat client and the reference Apache Kafka, each from its own registry, once: Maven Central
# (Kafka broker, tools, Java client), Debian (kcat), PyPI (confluent-kafka, kafka-python), the Go module proxy
# (franz-go, Sarama), npm (@platformatic/kafka). Each step is idempotent and cached under compat-tests/.cache
# (COMPAT_CACHE moves it) or the client's own folder, so a warm run only checks stamps.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
steps=(
  reference/install.sh
  clients/java-client/install.sh
  clients/kcat/install.sh
  clients/python/install.sh
  clients/franz-go/install.sh
  clients/sarama/install.sh
  clients/node/install.sh
)
for step in "${steps[@]}"; do
  started=$SECONDS
  "$here/$step"
  echo "compat install: $step ($((SECONDS - started)) s)" >&2
done
