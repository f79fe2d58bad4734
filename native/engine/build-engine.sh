#!/usr/bin/env bash
# Builds the storage engine that libpinrock.so links: RocksDB from Debian's
# source package, Release (-DNDEBUG), position-independent and static, with
# zstd and bzip2 also built from Debian source (Debian's own libzstd.a and
# libbz2.a are not PIC) and Debian's PIC static lz4, snappy and zlib beside
# them.
#
# RocksDB is built without its per-thread perf context (-DNPERF_CONTEXT).
# pinrock exposes no perf context, and in a shared library every update of
# those thread_local counters is a call to __tls_get_addr: on a hot memtable
# get they cost about a quarter of the engine's time (docs/benchmarking.md).
#
# The result is an install prefix (include/, lib/*.a) cached outside the work
# tree, keyed by this file's content: any change to versions or flags here
# gives a new key, so only a fresh machine (or a changed recipe) pays the
# build. The prefix is printed as the last line on stdout; everything else
# goes to stderr.
#
# Environment:
#   PINROCK_CACHE_DIR  cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pinrock)
#   PINROCK_JOBS       parallel compile jobs (default: nproc)
set -euo pipefail

ROCKSDB_VERSION=9.10.0
ROCKSDB_SOURCE=rocksdb/trixie
# The orig tarball's sha256 as trixie's Sources index lists it.
ROCKSDB_SHA256=fdccab16133c9d927a183c2648bcea8d956fb41eb1df2aacaa73eb0b95e43724
ZSTD_SOURCE=libzstd/bookworm
BZIP2_SOURCE=bzip2/bookworm
# Minimum CPU: x86-64 with SSE4.2/AVX2/PCLMUL (every x86 server since 2013).
PORTABLE_ARCH=haswell

log() { printf '[engine] %s\n' "$*" >&2; }
die() { printf '[engine] ERROR: %s\n' "$*" >&2; exit 1; }

script_path=$(readlink -f "${BASH_SOURCE[0]}")
cache_root=${PINROCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pinrock}
key=$(sha256sum "$script_path" | cut -c1-12)
prefix=$cache_root/engine/rocksdb-$ROCKSDB_VERSION-$key
jobs=${PINROCK_JOBS:-$(nproc)}

if [[ -f $prefix/.complete ]]; then
  echo "$prefix"
  exit 0
fi

for tool in cmake ninja make cc c++ tar xz; do
  command -v "$tool" >/dev/null ||
    die "'$tool' is missing: run scripts/install-deps.sh (or apt-get install cmake ninja-build build-essential xz-utils)"
done
for header in lz4.h snappy.h zlib.h; do
  [[ -f /usr/include/$header ]] ||
    die "/usr/include/$header is missing: run scripts/install-deps.sh (or apt-get install liblz4-dev libsnappy-dev zlib1g-dev)"
done

mkdir -p "$cache_root/engine"
exec 9>"$cache_root/engine/.lock"
log "waiting for the engine build lock (another build may be running)"
flock 9
if [[ -f $prefix/.complete ]]; then
  echo "$prefix"
  exit 0
fi

work=$cache_root/engine/build-$key
rm -rf "$work" "$prefix"
mkdir -p "$work" "$prefix/include" "$prefix/lib"
started=$(date +%s)

# --- sources, through apt with a private deb-src list and private state ----
# The mirror is the one this machine's apt already uses.
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [[ -z $mirror ]]; then
  mirror=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' \
    /etc/apt/sources.list 2>/dev/null || true)
fi
[[ -n $mirror ]] || die "no Debian mirror found in /etc/apt/sources.list(.d): configure apt first"

apt_dir=$work/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$apt_dir/sources.list" <<EOF
deb-src [signed-by=$keyring] $mirror trixie main
deb-src [signed-by=$keyring] $mirror bookworm main
EOF
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
  -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
log "reading Debian's source indexes from $mirror"
apt-get "${apt_opts[@]}" -qq update >&2 || die "apt-get update of the private deb-src list failed (network or mirror)"

# Downloads the upstream (orig) tarball of a source package into $work and
# prints its path. apt-helper verifies the sha256 that the Sources index lists;
# the packaging files are not needed (and this mirror answers 404 for some).
fetch_orig() {
  local source=$1 line url file hash
  line=$(cd "$work" && apt-get "${apt_opts[@]}" source --print-uris "$source" 2>/dev/null |
    grep -E "^'[^']+\.orig\.tar\.[a-z0-9]+' " | head -n1) ||
    die "apt knows no source package $source"
  url=$(awk '{print $1}' <<<"$line" | tr -d "'")
  file=$(awk '{print $2}' <<<"$line")
  hash=$(awk '{print $4}' <<<"$line")
  log "downloading $file"
  /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$url" "$work/$file" "$hash" >&2 ||
    die "download of $url failed"
  echo "$work/$file"
}

rocksdb_tar=$(fetch_orig "$ROCKSDB_SOURCE")
echo "$ROCKSDB_SHA256  $rocksdb_tar" | sha256sum -c --quiet - >&2 ||
  die "$rocksdb_tar does not match the pinned sha256 $ROCKSDB_SHA256"
zstd_tar=$(fetch_orig "$ZSTD_SOURCE")
bzip2_tar=$(fetch_orig "$BZIP2_SOURCE")

unpack() { # tarball -> prints the single top-level directory it unpacked
  local dir
  dir=$(mktemp -d "$work/src.XXXX")
  tar -xf "$1" -C "$dir"
  echo "$dir"/*
}

# --- zstd and bzip2, PIC ----------------------------------------------------
log "building zstd"
zstd_src=$(unpack "$zstd_tar")
make -C "$zstd_src/lib" -j"$jobs" libzstd.a-mt CFLAGS="-O3 -fPIC -DNDEBUG" >&2
cp "$zstd_src/lib/libzstd.a" "$prefix/lib/"
cp "$zstd_src/lib/zstd.h" "$zstd_src/lib/zstd_errors.h" "$zstd_src/lib/zdict.h" "$prefix/include/"

log "building bzip2"
bzip2_src=$(unpack "$bzip2_tar")
make -C "$bzip2_src" -j"$jobs" libbz2.a CFLAGS="-O2 -fPIC -D_FILE_OFFSET_BITS=64" >&2
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
log "building RocksDB $ROCKSDB_VERSION (Release, PIC, static; about 10 minutes on 2 cores)"
rocksdb_src=$(unpack "$rocksdb_tar")
cmake -S "$rocksdb_src" -B "$work/rocksdb-build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="-DNDEBUG" -DCMAKE_CXX_FLAGS="-DNDEBUG -DNPERF_CONTEXT" \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -Dzstd_ROOT_DIR="$prefix" \
  -DBZIP2_INCLUDE_DIR="$prefix/include" -DBZIP2_LIBRARY_RELEASE="$prefix/lib/libbz2.a" \
  -DPORTABLE="$PORTABLE_ARCH" \
  -DUSE_RTTI=ON \
  -DWITH_ZSTD=ON -DWITH_LZ4=ON -DWITH_SNAPPY=ON -DWITH_ZLIB=ON -DWITH_BZ2=ON \
  -DWITH_LIBURING=OFF -DWITH_JEMALLOC=OFF -DWITH_NUMA=OFF -DWITH_TBB=OFF -DWITH_GFLAGS=OFF \
  -DWITH_TESTS=OFF -DWITH_ALL_TESTS=OFF -DWITH_BENCHMARK_TOOLS=OFF -DWITH_CORE_TOOLS=OFF \
  -DWITH_TOOLS=OFF -DWITH_TRACE_TOOLS=OFF -DWITH_EXAMPLES=OFF -DWITH_BENCHMARK=OFF \
  -DROCKSDB_BUILD_SHARED=OFF -DFAIL_ON_WARNINGS=OFF >&2
cmake --build "$work/rocksdb-build" -j"$jobs" >&2
cmake --install "$work/rocksdb-build" >&2
[[ -f $prefix/lib/librocksdb.a ]] || die "RocksDB built but librocksdb.a was not installed"

elapsed=$(($(date +%s) - started))
cat >"$prefix/BUILD-INFO" <<EOF
rocksdb $ROCKSDB_VERSION ($ROCKSDB_SOURCE, sha256 $ROCKSDB_SHA256)
zstd from $ZSTD_SOURCE, bzip2 from $BZIP2_SOURCE
portable arch $PORTABLE_ARCH
perf context compiled out (NPERF_CONTEXT)
build seconds $elapsed
EOF
touch "$prefix/.complete"
rm -rf "$work"
log "engine ready in ${elapsed}s: $prefix"
echo "$prefix"
