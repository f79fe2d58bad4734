#!/usr/bin/env bash
# Runs the native tests: those of each platform build.sh built (for aarch64
# under emulation), then builds the instrumented tests (sanitizers and
# libFuzzer, over engine/build-host-engine.sh's engine) in
# TARGET/cmake-instrumented and runs them. The instrumented build also holds
# the ASan/UBSan libpinrock.so that java-api's contract-under-sanitizers
# execution loads.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../scripts/stage.sh"
target=${1:?usage: test.sh TARGET_DIR [JAVA_HOME]}
java_home=${2:-${JAVA_HOME:-}}

host_engine=$(stage "engine host" "$here/engine/build-host-engine.sh" | tail -n1)
cmake -S "$here" -B "$target/cmake-instrumented" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPINROCK_BUILD=instrumented -DPINROCK_ENGINE_DIR="$host_engine" -DPINROCK_JAVA_HOME="$java_home" >/dev/null
stage "native build instrumented" cmake --build "$target/cmake-instrumented" -j"${PINROCK_JOBS:-$(nproc)}"

failed=()
for build_dir in "$target"/cmake "$target"/cmake-*; do
  [[ -f $build_dir/CTestTestfile.cmake ]] || continue
  # Emulated tests are CPU-bound processes of their own: two at once halve
  # the wait (the power-loss tests take minutes each under qemu). The
  # others run one at a time, as their timings (stalls, retries) expect.
  jobs=1
  [[ $build_dir == "$target"/cmake-aarch64 ]] && jobs=$(nproc)
  echo "== ctest in $build_dir"
  stage "ctest ${build_dir#"$target"/}" ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" ||
    failed+=("$build_dir")
done
[[ ${#failed[@]} == 0 ]] || { echo "native tests failed in: ${failed[*]}" >&2; exit 1; }
