#!/usr/bin/env bash
# Builds everything and runs the main job: the JMH comparison of pinrock FFM,
# its JNI variant, RocksJava 9.10.0 and the native C++ floor, ending with the
# ratio table. Quick by default (a reduced grid, about five minutes once built);
#   scripts/bench.sh --full            the full grid (about 80 minutes on 2 cores),
#                                      recorded in docs/benchmarks/
#   scripts/bench.sh --kafka-streams   Kafka Streams on pinrock against the built-in
#                                      store, recorded in docs/benchmarks/kafka-streams.md
#   scripts/bench.sh --kafka-streams-e2e
#                                      three Kafka Streams applications on a real broker,
#                                      pinrock's stores against the built-in ones (about
#                                      35 minutes), recorded in docs/benchmarks/kafka-streams-e2e.md
#   scripts/bench.sh --tuning          reads served by filters and prefix extractors,
#                                      pinrock against RocksJava with the same options,
#                                      recorded in docs/benchmarks/tuning.md
#   scripts/bench.sh --transactions    transactions, pessimistic and optimistic, and batches
#                                      with index, pinrock against RocksJava with the same
#                                      options, recorded in docs/benchmarks/transactions.md
#   scripts/bench.sh --callbacks       merge operators and compaction filters written in
#                                      Java against RocksDB's built-in ones (pinrock and
#                                      RocksJava), and one call into Java by FFM and by JNI,
#                                      recorded in docs/benchmarks/callbacks.md
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
prepare
cd "$PINROCK_ROOT"
report=jmh-benchmarks/target/comparison
runner=dev.pinrock.bench.Comparison
command=scripts/bench.sh
for arg in "$@"; do
  [[ $arg == --full ]] && report=docs/benchmarks
done
if [[ ${1:-} == --kafka-streams ]]; then
  # Kafka Streams word count on pinrock against the built-in store (about 3 minutes),
  # recorded in docs/benchmarks/kafka-streams.md.
  shift
  report=docs/benchmarks
  runner=dev.pinrock.bench.KafkaStreamsComparison
  command="scripts/bench.sh --kafka-streams"
fi
if [[ ${1:-} == --kafka-streams-e2e ]]; then
  # Word count, a windowed and a session aggregation on a real broker (about 35 minutes),
  # recorded in docs/benchmarks/kafka-streams-e2e.md; options of the runner may follow
  # (--profile DIR records kafka-streams-e2e-profile.md instead).
  shift
  report=docs/benchmarks
  runner=dev.pinrock.bench.KafkaStreamsEndToEnd
  command="scripts/bench.sh --kafka-streams-e2e${*:+ $*}"
fi
if [[ ${1:-} == --tuning ]]; then
  # Absent-key gets with and without a Bloom filter and prefix scans (about 10 minutes),
  # recorded in docs/benchmarks/tuning.md.
  shift
  report=docs/benchmarks
  runner=dev.pinrock.bench.TuningComparison
  command="scripts/bench.sh --tuning"
fi
if [[ ${1:-} == --transactions ]]; then
  # Puts and read-modify-writes in transactions, and reads through a batch with
  # index (about 8 minutes), recorded in
  # docs/benchmarks/transactions.md.
  shift
  report=docs/benchmarks
  runner=dev.pinrock.bench.TransactionComparison
  command="scripts/bench.sh --transactions"
fi
if [[ ${1:-} == --callbacks ]]; then
  # Reads that merge, with a merge operator written in Java and RocksDB's
  # built-in one, compactions with a compaction filter written in Java, and
  # one call into Java by FFM and by JNI (about 5 minutes), recorded in
  # docs/benchmarks/callbacks.md.
  shift
  report=docs/benchmarks
  runner=dev.pinrock.bench.CallbackComparison
  command="scripts/bench.sh --callbacks"
fi
# One reactor build: the class path points at this tree's jars, not at the
# local Maven repository, which other builds may be rewriting. The
# benchmarks run here, on x86-64: only its library is built.
mvn -B -ntp -q -DskipTests -Dpinrock.platforms=x86_64 package dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt
java --enable-native-access=ALL-UNNAMED -Dpinrock.floor=native/target/cmake/pinrock_floor \
  -cp "jmh-benchmarks/target/classes:$(cat jmh-benchmarks/target/classpath.txt)" \
  "$runner" --report "$report" --command "$command" "$@"
