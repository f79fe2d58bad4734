#!/usr/bin/env bash
# Whole-process start-up, beside the JMH grid: a fresh JVM opens a new
# database, puts one key, gets it, closes and exits; pinrock (FFM) and
# RocksJava 9.10.0 take turns, each run in a fresh JVM on a fresh directory.
# Prints every run, then the medians of
#   open ms     from launching the JVM to RocksDb.open / RocksDB.open returned
#   put+get ms  the first put and the first get together
#   RSS MiB     the process's resident set at the end (and its peak)
# and pinrock / RocksJava for each. Runs what `mvn install` built (the
# probes in jmh-benchmarks/target/classes, this tree's pinrock-java-api jar,
# RocksJava from the local Maven repository); builds nothing itself.
#   scripts/startup.sh [RUNS]      RUNS per library, 15 by default
# Recorded in docs/benchmarks/startup.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
select_jdk
cd "$PINROCK_ROOT"
runs=${1:-15}
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number, not '$runs'"

probes=jmh-benchmarks/target/classes
[[ -f $probes/dev/pinrock/bench/StartupPinrock.class ]] ||
  die "$probes lacks the start-up probes: run mvn install first"
pinrock_jar=$(ls java-api/target/pinrock-java-api-*.jar 2>/dev/null | grep -v -e '-sources' -e '-javadoc' | head -1)
[[ -n $pinrock_jar ]] || die "java-api/target holds no pinrock-java-api jar: run mvn install first"
work=$(mktemp -d "${TMPDIR:-/tmp}/pinrock-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
mvn -B -ntp -q -pl jmh-benchmarks dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" \
  >"$work/mvn.log" 2>&1 || { cat "$work/mvn.log" >&2; die "cannot resolve jmh-benchmarks' class path: run mvn install first"; }
rocksjava_jar=$(tr ':' '\n' <"$work/classpath.txt" | grep '/rocksdbjni-[^/]*\.jar$' | head -1)
[[ -f $rocksjava_jar ]] || die "RocksJava's jar was not resolved (got '$rocksjava_jar')"

# One run: prints "open_ms=... put_get_ms=... rss_kib=... peak_rss_kib=...".
# The launch time is bash's clock (microseconds since the epoch) read just
# before the JVM is started; the probe subtracts it from its own clock. Each
# JVM gets only its own library's jar.
run() {
  local class=$1 jar=$2 launch
  rm -rf "$work/db"
  launch=${EPOCHREALTIME/./}
  java --enable-native-access=ALL-UNNAMED -Dpinrock.startup.launch="$launch" \
    -cp "$probes:$jar" "dev.pinrock.bench.$class" "$work/db"
}

java -version 2>&1 | head -1 >&2
say "$runs runs per library, taking turns"
: >"$work/pinrock" >"$work/rocksjava"
for ((i = 1; i <= runs; i++)); do
  # Alternate which goes first, so neither always follows the other.
  if ((i % 2)); then order=(pinrock rocksjava); else order=(rocksjava pinrock); fi
  for library in "${order[@]}"; do
    if [[ $library == pinrock ]]; then
      line=$(run StartupPinrock "$pinrock_jar")
    else
      line=$(run StartupRocksJava "$rocksjava_jar")
    fi
    printf '%-9s %s\n' "$library" "$line"
    echo "$line" >>"$work/$library"
  done
done

# The median of one field over a library's runs.
median() {
  awk -v name="$2" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) print kv[2] } }' \
    "$work/$1" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo
printf '| medians of %d runs | pinrock FFM | RocksJava 9.10.0 | pinrock / RocksJava |\n' "$runs"
echo '|---|---|---|---|'
for field in open_ms put_get_ms rss_kib peak_rss_kib; do
  p=$(median pinrock $field) r=$(median rocksjava $field)
  case $field in
    open_ms) name='open, ms from JVM launch' format='%.0f' ;;
    put_get_ms) name='first put + get, ms' format='%.2f' ;;
    rss_kib) name='RSS at the end, MiB' format='%.0f' p=$(awk "BEGIN { print $p / 1024 }") r=$(awk "BEGIN { print $r / 1024 }") ;;
    peak_rss_kib) name='peak RSS, MiB' format='%.0f' p=$(awk "BEGIN { print $p / 1024 }") r=$(awk "BEGIN { print $r / 1024 }") ;;
  esac
  printf "| %s | $format | $format | %.2f |\n" "$name" "$p" "$r" "$(awk "BEGIN { print $p / $r }")"
done
