#!/usr/bin/env bash
# Compiles Scenarios.java against the reference install's kafka-clients jar into compat-tests/.cache/java-client.
# Idempotent: recompiles only when the source is newer than the classes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../reference/env.sh"
"$COMPAT_DIR/reference/install.sh"
classes="$COMPAT_CACHE/java-client/classes"
if [ -f "$classes/Scenarios.class" ] && [ -z "$(find "$here" -newer "$classes/Scenarios.class" -name "*.java")" ]; then exit 0; fi
# Compile beside the old classes and swap, so a run in progress never sees an empty folder.
rm -rf "$classes.new"
mkdir -p "$classes.new"
javac -nowarn -encoding UTF-8 -cp "$KAFKA_LIBS/*" -d "$classes.new" "$here"/*.java >&2
rm -rf "$classes"
mv "$classes.new" "$classes"
