#!/usr/bin/env bash
# Builds the storage engine for the instrumented tests (native/test.sh): the
# shim compiled with Debian's clang 16 and its AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer, whose runtimes go with the host's
# libstdc++, so this engine is built with them too (clang 16 compiles it in
# 162 s, gcc 12 in 185). (The shipped libpinrock.so links
# engine/build-engine.sh's engine instead: zig's clang, glibc 2.17.)
# RocksDB from Debian's source package, -O1 (only tests link
# it: it is compiled for the build's speed, not its own) with -DNDEBUG,
# position-independent and static, without its per-thread perf context
# (-DNPERF_CONTEXT), with zstd and bzip2 also built from Debian source
# (Debian's own libzstd.a and libbz2.a are not PIC) and Debian's PIC static
# lz4, snappy and zlib beside them.
#
# The result is an install prefix (include/, lib/*.a) cached outside the work
# tree, keyed by this recipe's content: any change to versions or flags here
# gives a new key, so only a fresh machine (or a changed recipe) pays the
# build. The prefix is printed as the last line on stdout; everything else
# goes to stderr. Environment: see common.sh.
set -euo pipefail

ZSTD_SOURCE=libzstd/bookworm
BZIP2_SOURCE=bzip2/bookworm
# Minimum CPU: x86-64 with SSE4.2/AVX2/PCLMUL (every x86 server since 2013).
PORTABLE_ARCH=haswell

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
key=$(recipe_key "${BASH_SOURCE[0]}")
prefix=$engine_cache_root/engine/host-rocksdb-$ROCKSDB_VERSION-$key

if [[ -f $prefix/.complete ]]; then
  echo "$prefix"
  exit 0
fi

export CC=clang-16 CXX=clang++-16
for tool in cmake ninja make patch "$CC" "$CXX" tar xz; do
  command -v "$tool" >/dev/null ||
    die "'$tool' is missing: run scripts/test.sh once (it installs what is needed), or apt-get install cmake ninja-build build-essential clang-16 xz-utils"
done
for header in lz4.h snappy.h zlib.h; do
  [[ -f /usr/include/$header ]] ||
    die "/usr/include/$header is missing: apt-get install liblz4-dev libsnappy-dev zlib1g-dev"
done

lock_cache "$engine_cache_root/engine"
if [[ -f $prefix/.complete ]]; then
  echo "$prefix"
  exit 0
fi

work=$engine_cache_root/engine/build-host-$key
rm -rf "$work" "$prefix"
mkdir -p "$work" "$prefix/include" "$prefix/lib"
started=$(date +%s)

# --- sources --------------------------------------------------------------------
private_apt "$work/apt" "deb-src [signed-by=KEYRING] MIRROR trixie main" \
  "deb-src [signed-by=KEYRING] MIRROR bookworm main"
rocksdb_tar=$(fetch_orig "$ROCKSDB_SOURCE" "$work")
echo "$ROCKSDB_SHA256  $rocksdb_tar" | sha256sum -c --quiet - >&2 ||
  die "$rocksdb_tar does not match the pinned sha256 $ROCKSDB_SHA256"
zstd_tar=$(fetch_orig "$ZSTD_SOURCE" "$work")
bzip2_tar=$(fetch_orig "$BZIP2_SOURCE" "$work")

# --- zstd and bzip2, PIC ----------------------------------------------------
log "building zstd"
zstd_src=$(unpack_tarball "$zstd_tar" "$work")
make -C "$zstd_src/lib" -j"$engine_jobs" libzstd.a-mt CFLAGS="-O3 -fPIC -DNDEBUG" >&2
cp "$zstd_src/lib/libzstd.a" "$prefix/lib/"
cp "$zstd_src/lib/zstd.h" "$zstd_src/lib/zstd_errors.h" "$zstd_src/lib/zdict.h" "$prefix/include/"

log "building bzip2"
bzip2_src=$(unpack_tarball "$bzip2_tar" "$work")
make -C "$bzip2_src" -j"$engine_jobs" libbz2.a CFLAGS="-O2 -fPIC -D_FILE_OFFSET_BITS=64" >&2
cp "$bzip2_src/libbz2.a" "$prefix/lib/"
cp "$bzip2_src/bzlib.h" "$prefix/include/"

# Debian's lz4, snappy and zlib archives are PIC: take them as they are.
for lib in liblz4.a libsnappy.a libz.a; do
  found=$(ls /usr/lib/*-linux-gnu/$lib 2>/dev/null | head -n1) ||
    die "$lib is missing: apt-get install liblz4-dev libsnappy-dev zlib1g-dev"
  [[ -n $found ]] || die "$lib is missing: apt-get install liblz4-dev libsnappy-dev zlib1g-dev"
  cp "$found" "$prefix/lib/"
done

# --- RocksDB ------------------------------------------------------------------
log "building RocksDB $ROCKSDB_VERSION for the instrumented tests (-O1, PIC, static; about 8 minutes on 2 cores)"
rocksdb_src=$(unpack_tarball "$rocksdb_tar" "$work")
build_rocksdb "$rocksdb_src" "$work/rocksdb-build" "$prefix" \
  -DCMAKE_C_FLAGS_RELEASE="-O1" -DCMAKE_CXX_FLAGS_RELEASE="-O1" -DPORTABLE="$PORTABLE_ARCH"
finish_engine "$prefix" "$work" "$started" "zstd from $ZSTD_SOURCE, bzip2 from $BZIP2_SOURCE" \
  "compiler $("$CXX" --version | head -n1), -O1" "portable arch $PORTABLE_ARCH"
