#!/usr/bin/env bash
# Builds libpinrock.so (the C ABI and the JNI variant) and its native tests
# for each platform in PLATFORMS (default: x86_64 aarch64), with jni.h from
# JAVA_HOME: the x86_64 build in TARGET/cmake, the others in
# TARGET/cmake-ARCH. Each library is placed at
# TARGET/classes/dev/pinrock/native/linux-ARCH/libpinrock.so (with its
# SHA-256 beside it in libpinrock.so.sha256), where the Java loader finds
# it as a resource. The engines come from engine/build-engine.sh (cached
# after the first build); aarch64's tests run under qemu-aarch64-static in
# the root of platform/arm64-root.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../scripts/stage.sh"
source "$here/compiler-cache.sh"
target=${1:?usage: build.sh TARGET_DIR [JAVA_HOME [PLATFORMS]]}
java_home=${2:-${JAVA_HOME:-}}
platforms=${3:-x86_64 aarch64}
[[ -f $java_home/include/jni.h ]] ||
  { echo "native/build.sh: no jni.h under '$java_home': pass a JDK 22+ home or set JAVA_HOME" >&2; exit 1; }

for arch in $platforms; do
  emulator_root=""
  if [[ $arch == aarch64 ]]; then
    command -v qemu-aarch64-static >/dev/null ||
      { echo "native/build.sh: qemu-aarch64-static is missing (it runs the aarch64 tests): apt-get install qemu-user-static" >&2; exit 1; }
    emulator_root=$(stage "arm64 root" "$here/platform/arm64-root.sh" | tail -n1)
  fi
  engine=$(stage "engine $arch" "$here/engine/build-engine.sh" "$arch" $emulator_root | tail -n1)
  build_dir=$target/cmake
  [[ $arch == x86_64 ]] || build_dir=$target/cmake-$arch
  cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$engine/toolchain.cmake" \
    -DPINROCK_ENGINE_DIR="$engine" -DPINROCK_JAVA_HOME="$java_home" "${compiler_cache_args[@]}" >/dev/null
  stage "native build $arch" cmake --build "$build_dir" -j"${PINROCK_JOBS:-$(nproc)}"
  resource_dir=$target/classes/dev/pinrock/native/linux-$arch
  mkdir -p "$resource_dir"
  cp "$build_dir/libpinrock.so" "$resource_dir/libpinrock.so"
  # The loader checks the library it extracts (and finds cached) against this.
  (cd "$resource_dir" && sha256sum libpinrock.so | cut -d' ' -f1 >libpinrock.so.sha256)
done
