#!/usr/bin/env bash
# Builds the storage engine that the shipped libpinrock.so links, for one
# platform: ARCH is x86_64 or aarch64 (Linux, glibc). The compiler is zig's
# clang (`zig c++`, from PyPI's ziglang wheel, pinned by hash), whose sysroot
# is glibc 2.17 for either ARCH: everything built here, and the library
# linked from it, needs no glibc symbol newer than GLIBC_2.17, the floor of
# the JDK builds pinrock targets. The C++ runtime is zig's libc++, linked in
# statically.
#
# Built from Debian's source packages: RocksDB (Release, -DNDEBUG, PIC,
# static, without its per-thread perf context: -DNPERF_CONTEXT, see
# docs/benchmarking.md) and the five compression libraries it links (zstd,
# bzip2, lz4, snappy, zlib), plus GoogleTest (Debian's /usr/src/googletest)
# for the native tests. C++ is compiled with -Xclang -O3 (zig's driver caps
# -O3 at -O2) and -mllvm -inline-threshold=1000: with clang's default
# threshold RocksDB's block-index key comparison stays out of line and an
# absent-key get is about 15 % slower than gcc's build; with it, about 10 %
# faster (docs/native.md).
#
# The result is an install prefix cached outside the work tree, keyed by
# this recipe's content: include/, lib/*.a, the compiler wrappers under
# toolchain/, zig's own cache (its libc++ builds) and toolchain.cmake, which
# a CMake build passes as CMAKE_TOOLCHAIN_FILE. For aarch64 the toolchain
# file names qemu-aarch64-static as the emulator that runs the tests when
# ARM64_ROOT is given: a root of arm64 Debian packages (glibc and a JDK,
# platform/arm64-root.sh). The prefix is printed as the last line on stdout;
# everything else goes to stderr.
set -euo pipefail

arch=${1:?usage: build-engine.sh x86_64|aarch64 [ARM64_ROOT]}
arm64_root=${2:-}
COMPRESSION_SOURCES=(libzstd/bookworm bzip2/bookworm lz4/bookworm snappy/bookworm zlib/bookworm)
ZIG_VERSION=0.17.1
ZIG_WHEEL_SHA256=ea6cc5d87b033cf0aedfbc8f9549a908cae6c50ac31f1698188fa48a74524b54
GLIBC_FLOOR=2.17
CXX_OPTIMIZATION="-Xclang -O3 -mllvm -inline-threshold=1000"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"

case $arch in
  # Minimum CPU: x86-64 with SSE4.2/AVX2/PCLMUL (every x86 server since 2013).
  x86_64) portable=haswell portable_cpu_flag=-march=haswell cmake_system=() ;;
  # ARMv8-A with the CRC32 and crypto extensions (every 64-bit ARM server
  # core), RocksDB's own choice for a portable build.
  # (portable_cpu_flag: the flag RocksDB's CMakeLists.txt compiles with for
  # PORTABLE, as spelled below for zig.)
  aarch64) portable=1 portable_cpu_flag=-mcpu=generic+crc+crypto
    cmake_system=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64) ;;
  *) die "no engine recipe for '$arch': pinrock builds for x86_64 and aarch64" ;;
esac

key=$(recipe_key "${BASH_SOURCE[0]}")
prefix=$engine_cache_root/engine/$arch-rocksdb-$ROCKSDB_VERSION-$key
# The emulator's root is not part of the recipe: it is written into the
# toolchain file at every call.
write_toolchain_file() {
  {
    echo "# Written by native/engine/build-engine.sh: zig c++ for $arch-linux-gnu.$GLIBC_FLOOR."
    if [[ $arch == aarch64 ]]; then
      echo "set(CMAKE_SYSTEM_NAME Linux)"
      echo "set(CMAKE_SYSTEM_PROCESSOR aarch64)"
      [[ -z $arm64_root ]] || echo "set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L \"$arm64_root\")"
    fi
    cat <<EOF
set(CMAKE_C_COMPILER "$prefix/toolchain/cc")
set(CMAKE_CXX_COMPILER "$prefix/toolchain/c++")
set(CMAKE_AR "$prefix/toolchain/ar")
set(CMAKE_RANLIB "$prefix/toolchain/ranlib")
set(CMAKE_PREFIX_PATH "$prefix")
set(PINROCK_PLATFORM "linux-$arch")
EOF
  } >"$prefix/toolchain.cmake"
}

if [[ -f $prefix/.complete ]]; then
  write_toolchain_file
  echo "$prefix"
  exit 0
fi

for tool in cmake ninja make patch tar xz python3; do
  command -v "$tool" >/dev/null ||
    die "'$tool' is missing: run scripts/test.sh once (it installs what is needed), or apt-get install cmake ninja-build build-essential xz-utils python3-pip"
done
python3 -m pip --version >/dev/null 2>&1 || die "python3's pip is missing: apt-get install python3-pip"
[[ -d /usr/src/googletest ]] || die "/usr/src/googletest is missing: apt-get install libgtest-dev"

lock_cache "$engine_cache_root/engine"
if [[ -f $prefix/.complete ]]; then
  write_toolchain_file
  echo "$prefix"
  exit 0
fi

work=$engine_cache_root/engine/build-$arch-$key
rm -rf "$work" "$prefix"
mkdir -p "$work" "$prefix/include" "$prefix/lib" "$prefix/toolchain"
started=$(date +%s)

# --- the compiler: zig, from the ziglang wheel (pip's default index) ---------
log "downloading ziglang $ZIG_VERSION"
echo "ziglang==$ZIG_VERSION --hash=sha256:$ZIG_WHEEL_SHA256" >"$work/zig-requirement.txt"
python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
  -r "$work/zig-requirement.txt" -d "$work/wheel" >&2 ||
  die "pip could not download ziglang $ZIG_VERSION (network, or a pip index that lacks it)"
python3 -m zipfile -e "$work"/wheel/ziglang-*.whl "$prefix/zig" >&2
chmod +x "$prefix/zig/ziglang/zig"
zig=$prefix/zig/ziglang/zig
target=$arch-linux-gnu.$GLIBC_FLOOR
# -g0: zig emits DWARF by default, gcc and clang do not; a later -g still wins.
for wrapper in "cc:cc -target $target -g0" "c++:c++ -target $target -g0 $CXX_OPTIMIZATION" "ar:ar" "ranlib:ranlib"; do
  cat >"$prefix/toolchain/${wrapper%%:*}" <<EOF
#!/bin/sh
export ZIG_GLOBAL_CACHE_DIR="$prefix/zig-cache"
exec "$zig" ${wrapper#*:} "\$@"
EOF
  chmod +x "$prefix/toolchain/${wrapper%%:*}"
done
CC=$prefix/toolchain/cc CXX=$prefix/toolchain/c++ AR=$prefix/toolchain/ar RANLIB=$prefix/toolchain/ranlib
write_toolchain_file

# zig builds its C++ runtime (libc++, libc++abi, libunwind, compiler-rt) from
# source at the first link that needs it, once per variant, on one thread:
# about 80 s each. Three variants are needed: the baseline CPU's (the configure
# checks of snappy and GoogleTest), RocksDB's portable CPU's (its configure
# checks) and a position-independent one without debug information (libpinrock.so,
# linked with --strip-debug by native/CMakeLists.txt). Built in turn inside
# those steps they kept a core idle for about four minutes per engine; here
# they are built at once, beside the downloads and the compression libraries,
# into zig's cache (which the later links find, or wait for under its lock).
log "building zig's C++ runtime variants in the background"
echo 'int main() { return 0; }' >"$work/runtime-warmup.cc"
runtime_warmups=()
for variant in "baseline:" "portable:$portable_cpu_flag" "library:-fPIC -shared -Wl,--strip-debug"; do
  # shellcheck disable=SC2086 # the variant's flags are words
  "$CXX" ${variant#*:} "$work/runtime-warmup.cc" -o "$work/runtime-warmup-${variant%%:*}" \
    >"$work/runtime-warmup-${variant%%:*}.log" 2>&1 &
  runtime_warmups+=($!)
done
cmake_cross=(-DCMAKE_TOOLCHAIN_FILE="$prefix/toolchain.cmake" -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX="$prefix")

# --- sources ----------------------------------------------------------------------
private_apt "$work/apt" "deb-src [signed-by=KEYRING] MIRROR trixie main" \
  "deb-src [signed-by=KEYRING] MIRROR bookworm main"
rocksdb_tar=$(fetch_orig "$ROCKSDB_SOURCE" "$work")
echo "$ROCKSDB_SHA256  $rocksdb_tar" | sha256sum -c --quiet - >&2 ||
  die "$rocksdb_tar does not match the pinned sha256 $ROCKSDB_SHA256"
declare -A compression_src
for source in "${COMPRESSION_SOURCES[@]}"; do
  compression_src[${source%%/*}]=$(unpack_tarball "$(fetch_orig "$source" "$work")" "$work")
done

# --- compression libraries, static and PIC ------------------------------------------
log "building zstd, bzip2, lz4, zlib and snappy for $target"
src=${compression_src[libzstd]}
make -C "$src/lib" -j"$engine_jobs" libzstd.a-mt CC="$CC" AR="$AR" CFLAGS="-O3 -fPIC -DNDEBUG" >&2
cp "$src/lib/libzstd.a" "$prefix/lib/"
cp "$src/lib/zstd.h" "$src/lib/zstd_errors.h" "$src/lib/zdict.h" "$prefix/include/"

src=${compression_src[bzip2]}
make -C "$src" -j"$engine_jobs" libbz2.a CC="$CC" AR="$AR" RANLIB="$RANLIB" \
  CFLAGS="-O2 -fPIC -D_FILE_OFFSET_BITS=64" >&2
cp "$src/libbz2.a" "$prefix/lib/"
cp "$src/bzlib.h" "$prefix/include/"

src=${compression_src[lz4]}
make -C "$src/lib" -j"$engine_jobs" liblz4.a CC="$CC" AR="$AR" CFLAGS="-O3 -fPIC" >&2
cp "$src/lib/liblz4.a" "$prefix/lib/"
cp "$src/lib/lz4.h" "$src/lib/lz4hc.h" "$src/lib/lz4frame.h" "$prefix/include/"

src=${compression_src[zlib]}
(cd "$src" && CC="$CC" AR="$AR" RANLIB="$RANLIB" CFLAGS="-O2 -fPIC" ./configure --static >&2 &&
  make -j"$engine_jobs" libz.a >&2)
cp "$src/libz.a" "$prefix/lib/"
cp "$src/zlib.h" "$src/zconf.h" "$prefix/include/"

src=${compression_src[snappy]}
# snappy forces -fno-rtti, but RocksDB (built with RTTI) subclasses
# snappy::Source; Debian's package drops the flag too.
sed -i 's/ -fno-rtti")/")/' "$src/CMakeLists.txt"
cmake -S "$src" -B "$work/snappy-build" -G Ninja "${cmake_cross[@]}" -DBUILD_SHARED_LIBS=OFF \
  -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF >&2
cmake --build "$work/snappy-build" -j"$engine_jobs" >&2
cmake --install "$work/snappy-build" >&2

# --- GoogleTest, for the native tests (built against libc++ like them) -------------
log "building GoogleTest for $target"
cmake -S /usr/src/googletest -B "$work/gtest-build" -G Ninja "${cmake_cross[@]}" -DBUILD_GMOCK=OFF >&2
cmake --build "$work/gtest-build" -j"$engine_jobs" >&2
cmake --install "$work/gtest-build" >&2

# --- RocksDB ------------------------------------------------------------------------
# A warm-up that failed only costs time: the link that needs its variant
# builds it (and reports a broken compiler itself).
for pid in "${runtime_warmups[@]}"; do
  wait "$pid" || log "a C++ runtime warm-up failed (see $work/runtime-warmup-*.log); the build goes on"
done
log "building RocksDB $ROCKSDB_VERSION for $target (about 10 to 15 minutes on 2 cores)"
rocksdb_src=$(unpack_tarball "$rocksdb_tar" "$work")
# zig's clang rejects -march=armv8-a+crc+crypto ("unknown CPU"): the same
# CPU, spelled as clang's -mcpu.
sed -i 's/-march=armv8-a+crc+crypto/-mcpu=generic+crc+crypto/g' "$rocksdb_src/CMakeLists.txt"
build_rocksdb "$rocksdb_src" "$work/rocksdb-build" "$prefix" "${cmake_cross[@]}" \
  -Dlz4_ROOT_DIR="$prefix" -DSnappy_ROOT_DIR="$prefix" -DZLIB_ROOT="$prefix" -DPORTABLE="$portable"
finish_engine "$prefix" "$work" "$started" "compression libraries from ${COMPRESSION_SOURCES[*]}" \
  "compiler zig $ZIG_VERSION, target $target, C++ flags $CXX_OPTIMIZATION" "portable $portable"
