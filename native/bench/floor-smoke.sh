#!/usr/bin/env bash
# Smoke test of the native floor (bench/floor.cc) on a tiny database: every
# operation must exit 0 and print exactly one RESULT line with a positive
# ops_per_s. The sst reads reuse the database the sequential put filled: on
# reopening, RocksDB flushes the recovered write-ahead log into an SST file.
set -euo pipefail
floor=${1:?usage: floor-smoke.sh path/to/pinrock_floor}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run DB OP LOCATION ORDER [OPTION VALUE]...
run() {
  local db=$1 op=$2 location=$3 order=$4
  shift 4
  local out
  out=$("$floor" --db "$tmp/$db" --op "$op" --location "$location" --order "$order" \
    --key-bytes 24 --value-bytes 100 --keys 1000 --seconds 0.2 "$@") ||
    { echo "FAIL: $op $location $order exited $?"; exit 1; }
  echo "$op $location $order $*: $out"
  local pattern="^RESULT op=$op ops_per_s=([0-9]+\.[0-9]+) ns_per_op=[0-9.]+ operations=[0-9]+ seconds=[0-9.]+ threads=[0-9]+$"
  if [[ ! $out =~ $pattern ]] || ! awk -v r="${BASH_REMATCH[1]}" 'BEGIN { exit !(r > 0) }'; then
    echo "FAIL: no RESULT line with a positive ops_per_s"
    exit 1
  fi
}

run put put memtable sequential
run put get sst random --threads 2
run put get sst zipfian --threads 2 --block-cache-bytes 65536
compgen -G "$tmp/put/*.sst" >/dev/null || { echo "FAIL: the sst reads found no SST file"; exit 1; }
run put get-absent sst sequential
run put get-to-file sst random
run put get-copy-to-file sst random
run put multi-get sst random
run put scan sst sequential
run put scan-batches sst sequential
run put scan-views sst sequential
run get get memtable random
run families multi-get-families memtable random
run delete delete memtable random --threads 2
run unlogged put-without-log memtable random
[[ $(cat "$tmp"/unlogged/*.log | wc -c) -eq 0 ]] || { echo "FAIL: put-without-log wrote to the log"; exit 1; }
run batch batch-put memtable random
run load put flushing random --value-bytes 1024 --values fields --compression zstd \
  --write-buffer-bytes 65536 --block-cache-bytes 65536
compgen -G "$tmp/load/*.sst" >/dev/null || { echo "FAIL: the flushing puts flushed no SST file"; exit 1; }
echo "OK: every operation printed a RESULT line"
