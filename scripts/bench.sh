#!/usr/bin/env bash
# Builds everything and runs the main job: load 1M keys with zstd, read them
# back through every access mode, verify each value, print ops/s per mode.
#   scripts/bench.sh [--keys N]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
prepare
cd "$PINROCK_ROOT"
mvn -B -ntp -q -DskipTests install
mvn -B -ntp -q -pl jmh-benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
java --enable-native-access=ALL-UNNAMED \
  -cp "jmh-benchmarks/target/classes:$(cat jmh-benchmarks/target/classpath.txt)" \
  dev.pinrock.bench.AccessModeTour "$@"
