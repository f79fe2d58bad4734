#!/usr/bin/env bash
# Runs one fuzz target as a test: first replays its regression inputs
# (regressions/TARGET/, each must pass), then fuzzes for SECONDS seconds
# (PINROCK_FUZZ_SECONDS when set), starting from its seed corpus
# (corpus/TARGET/), with the dictionary TARGET.dict when there is one. New inputs and any crashing input are kept under
# WORK_DIR, never in the source tree. Exits non-zero on any crash, sanitizer
# report or failed check.
#   run-target.sh FUZZER TARGET SECONDS WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fuzzer=${1:?usage: run-target.sh FUZZER TARGET SECONDS WORK_DIR}
target=${2:?} seconds=${PINROCK_FUZZ_SECONDS:-${3:?}} work=${4:?}

export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
mkdir -p "$work/corpus/$target" "$work/artifacts/$target"
artifacts=-artifact_prefix=$work/artifacts/$target/

regressions=$here/regressions/$target
if compgen -G "$regressions/*" >/dev/null; then
  "$fuzzer" "$artifacts" "$regressions"/*
fi
dictionary=()
[[ -f $here/$target.dict ]] && dictionary=(-dict="$here/$target.dict")
"$fuzzer" "$artifacts" "${dictionary[@]}" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
  -print_final_stats=1 "$work/corpus/$target" "$here/corpus/$target"
