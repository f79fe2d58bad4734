#!/usr/bin/env bash
# Builds everything (the RocksDB engine on first use, libpinrock.so, the Java
# modules) and runs every test: the native GoogleTest suite, the library
# self-containment check, the stale-bindings check, and all JUnit tests; then
# three minutes of fuzzing random call sequences (the Maven profile fuzz).
# Ends with the time of each stage, and fails when a stage took longer than
# its budget in scripts/stage-budgets.tsv (docs/contributing.md).
#
#   scripts/test.sh [MAVEN ARGS...]   everything (what CI runs)
#   scripts/test.sh --quick           while working: the x86-64 library and the
#                                     Java API's tests and contract suite on this
#                                     JVM only (-Pquick, docs/contributing.md)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$PINROCK_ROOT/scripts/stage.sh"
prepare
cd "$PINROCK_ROOT"
mkdir -p target
export PINROCK_STAGE_TIMES=$PINROCK_ROOT/target/stage-times.tsv
: >"$PINROCK_STAGE_TIMES"
log=$PINROCK_ROOT/target/test-command.log
status=0
# The Kafka Streams stores' and the benchmarks' tests keep their files in
# memory when /dev/shm has a GiB free (they used 153 MiB at most): they flush
# a database at every commit of Kafka's test driver, and on a disk the
# flushes' file syncs cost more than the flushes (the root pom's
# pinrock.test.scratch, docs/contributing.md). Elsewhere the system's
# temporary directory serves.
scratch_args=()
if [[ -d /dev/shm && -w /dev/shm ]] && (($(df --output=avail -k /dev/shm | tail -n1) >= 1 << 20)); then
  scratch=$(mktemp -d /dev/shm/pinrock-tests.XXXXXX)
  trap 'rm -rf "$scratch"' EXIT
  scratch_args=(-Dpinrock.test.scratch="$scratch")
fi
if [[ ${1:-} == --quick ]]; then
  shift
  stage "whole quick test command" mvn -B -ntp package -Pquick -pl native,jextract-bindings,java-api "$@" 2>&1 |
    tee "$log" || status=$?
else
  # Two modules at a time (-T 2): once the Java API is built, the integration
  # tests (whose last three minutes are Jazzer on one thread) run beside the
  # Kafka Streams stores and then the benchmarks, which depend on neither.
  stage "whole test command" mvn -B -ntp -T 2 install -Pfuzz "${scratch_args[@]}" "$@" 2>&1 |
    tee "$log" || status=$?
fi
record_maven_stages "$log" >>"$PINROCK_STAGE_TIMES"
check_stage_budgets "$PINROCK_STAGE_TIMES" "$PINROCK_ROOT/scripts/stage-budgets.tsv" || status=1
exit $status
