#!/usr/bin/env bash
# Builds everything (the RocksDB engine on first use, libpinrock.so, the Java
# modules) and runs every test: the native GoogleTest suite, the library
# self-containment check, the stale-bindings check, and all JUnit tests; then
# three minutes of fuzzing random call sequences (the Maven profile fuzz).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
prepare
cd "$PINROCK_ROOT"
mvn -B -ntp install -Pfuzz "$@"
