#!/usr/bin/env bash
# Runs the native tests: those of each platform build.sh built (for aarch64
# under emulation), then builds the instrumented tests (sanitizers and
# libFuzzer, with clang 16, over engine/build-host-engine.sh's engine) in
# TARGET/cmake-instrumented and runs them. The instrumented build also holds
# the ASan/UBSan libpinrock.so that java-api's contract-under-sanitizers
# execution loads.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../scripts/stage.sh"
source "$here/compiler-cache.sh"
target=${1:?usage: test.sh TARGET_DIR [JAVA_HOME]}
java_home=${2:-${JAVA_HOME:-}}

host_engine=$(stage "engine host" "$here/engine/build-host-engine.sh" | tail -n1)
for compiler in clang-16 clang++-16; do
  command -v "$compiler" >/dev/null ||
    { echo "native/test.sh: $compiler is missing (the sanitizer and libFuzzer builds): apt-get install clang-16 libclang-rt-16-dev" >&2; exit 1; }
done
cmake -S "$here" -B "$target/cmake-instrumented" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 \
  -DPINROCK_BUILD=instrumented -DPINROCK_ENGINE_DIR="$host_engine" -DPINROCK_JAVA_HOME="$java_home" \
  "${compiler_cache_args[@]}" >/dev/null
stage "native build instrumented" cmake --build "$target/cmake-instrumented" -j"${PINROCK_JOBS:-$(nproc)}"

# The three suites run at once, each one test at a time (their timings,
# stalls and retries, expect a core of their own): most of their tests are
# one CPU-bound process (valgrind, the sanitizers, a fuzz target, one test
# under qemu), so on two cores the three take about half the time they take
# one after another. Each suite's output goes to its own log, printed whole
# when it ends. A test running past --timeout (a hang) fails with its name.
suites=() pids=()
for build_dir in "$target"/cmake "$target"/cmake-*; do
  [[ -f $build_dir/CTestTestfile.cmake ]] || continue
  suite=${build_dir#"$target"/}
  suites+=("$suite")
  stage "ctest $suite" ctest --test-dir "$build_dir" --output-on-failure --timeout 900 \
    >"$target/ctest-$suite.log" 2>&1 &
  pids+=($!)
done
failed=()
for i in "${!suites[@]}"; do
  status=0
  wait "${pids[$i]}" || status=$?
  echo "== ctest in $target/${suites[$i]}"
  cat "$target/ctest-${suites[$i]}.log"
  [[ $status == 0 ]] || failed+=("$target/${suites[$i]}")
done
[[ ${#failed[@]} == 0 ]] && exit 0
# The logs above are long; what failed is repeated last, where a report that
# keeps only the end of the output still shows it.
for build_dir in "${failed[@]}"; do
  echo "== what failed in $build_dir" >&2
  grep -E '\*\*\*(Failed|Timeout|Exception)|\[  FAILED  \]|: Failure$|ERROR: [A-Za-z]+Sanitizer|SUMMARY: |runtime error:|Segmentation fault|Aborted' \
    "$target/ctest-${build_dir#"$target"/}.log" | head -n 40 >&2 || true
done
echo "native tests failed in: ${failed[*]}" >&2
exit 1
