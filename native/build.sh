#!/usr/bin/env bash
# Builds libpinrock.so (the C ABI and the JNI variant) and its native tests
# into TARGET/cmake, with jni.h from JAVA_HOME, and places the
# library at TARGET/classes/dev/pinrock/native/linux-x86_64/libpinrock.so (with its
# SHA-256 beside it in libpinrock.so.sha256),
# where the Java loader finds it as a resource. The engine comes from
# engine/build-engine.sh (cached after the first build).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
target=${1:?usage: build.sh TARGET_DIR [JAVA_HOME]}
java_home=${2:-${JAVA_HOME:-}}
[[ -f $java_home/include/jni.h ]] ||
  { echo "native/build.sh: no jni.h under '$java_home': pass a JDK 22+ home or set JAVA_HOME" >&2; exit 1; }

engine=$("$here/engine/build-engine.sh" | tail -n1)
cmake -S "$here" -B "$target/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPINROCK_ENGINE_DIR="$engine" -DPINROCK_JAVA_HOME="$java_home" >/dev/null
cmake --build "$target/cmake" -j"${PINROCK_JOBS:-$(nproc)}"
resource_dir=$target/classes/dev/pinrock/native/linux-x86_64
mkdir -p "$resource_dir"
cp "$target/cmake/libpinrock.so" "$resource_dir/libpinrock.so"
# The loader checks the library it extracts (and finds cached) against this.
(cd "$resource_dir" && sha256sum libpinrock.so | cut -d' ' -f1 >libpinrock.so.sha256)
