# Shared by the engine scripts (sourced, not run): logging, the cache, and
# Debian packages fetched through apt with a private source list and
# private state, from the mirror this machine's apt already uses.
#
# Environment:
#   PINROCK_CACHE_DIR  cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pinrock)
#   PINROCK_JOBS       parallel compile jobs (default: nproc)

log() { printf '[engine] %s\n' "$*" >&2; }
die() { printf '[engine] ERROR: %s\n' "$*" >&2; exit 1; }

engine_cache_root=${PINROCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pinrock}

# The RocksDB both engines build: Debian's source package, its orig
# tarball's sha256 as trixie's Sources index lists it.
ROCKSDB_VERSION=9.10.0
ROCKSDB_SOURCE=rocksdb/trixie
ROCKSDB_SHA256=fdccab16133c9d927a183c2648bcea8d956fb41eb1df2aacaa73eb0b95e43724
# RocksDB's CMake options both engines share: RTTI (the shim uses
# dynamic_cast on RocksDB's classes), the five compression libraries,
# nothing but the static library, and a unity build: CMake compiles the
# library's sources sixteen to a file (RocksDB keeps its sources free of
# clashes between files for its own unity build), which parses RocksDB's
# headers a sixteenth as often: the x86-64 engine in 232 s instead of 894
# on 2 cores (docs/contributing.md).
ROCKSDB_CMAKE_OPTIONS=(-DUSE_RTTI=ON -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16
  -DWITH_ZSTD=ON -DWITH_LZ4=ON -DWITH_SNAPPY=ON -DWITH_ZLIB=ON -DWITH_BZ2=ON
  -DWITH_LIBURING=OFF -DWITH_JEMALLOC=OFF -DWITH_NUMA=OFF -DWITH_TBB=OFF -DWITH_GFLAGS=OFF
  -DWITH_TESTS=OFF -DWITH_ALL_TESTS=OFF -DWITH_BENCHMARK_TOOLS=OFF -DWITH_CORE_TOOLS=OFF
  -DWITH_TOOLS=OFF -DWITH_TRACE_TOOLS=OFF -DWITH_EXAMPLES=OFF -DWITH_BENCHMARK=OFF
  -DROCKSDB_BUILD_SHARED=OFF -DFAIL_ON_WARNINGS=OFF)
engine_jobs=${PINROCK_JOBS:-$(nproc)}
engine_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# pinrock's fixes to RocksDB's source, applied to every engine (each patch
# says what it fixes; docs/native.md lists them).
engine_patches=("$(dirname "${BASH_SOURCE[0]}")"/patches/*.patch)

# A cache key for a recipe: the content of the given files (the recipe
# script), this file and the patches, so that any change to versions, flags
# or patches builds anew.
recipe_key() {
  cat "$@" "${BASH_SOURCE[0]}" "${engine_patches[@]}" | sha256sum | cut -c1-12
}

# Takes the build lock of the cache directory $1 on descriptor 9 (held until
# the script exits): concurrent builds of the same recipe wait for each other.
lock_cache() {
  mkdir -p "$1"
  exec 9>"$1/.lock"
  log "waiting for the build lock of $1 (another build may be running)"
  flock 9
}

# The Debian mirror this machine's apt uses.
debian_mirror() {
  local mirror
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  if [[ -z $mirror ]]; then
    mirror=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' \
      /etc/apt/sources.list 2>/dev/null || true)
  fi
  [[ -n $mirror ]] || die "no Debian mirror found in /etc/apt/sources.list(.d): configure apt first"
  echo "$mirror"
}

# Sets up a private apt in directory $1 whose source list holds the lines
# "$2"... (with MIRROR and KEYRING replaced), reads its indexes, and leaves
# the options that select it in the array apt_opts. Extra apt options (e.g.
# an architecture) follow in apt_extra_opts, when set.
private_apt() {
  local dir=$1 line mirror
  shift
  mirror=$(debian_mirror)
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  : >"$dir/status"
  : >"$dir/sources.list"
  for line in "$@"; do
    line=${line//MIRROR/$mirror}
    echo "${line//KEYRING/$engine_keyring}" >>"$dir/sources.list"
  done
  apt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$dir/lists" -o "Dir::State::status=$dir/status" -o "Dir::Cache=$dir/cache"
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root "${apt_extra_opts[@]}")
  log "reading Debian's indexes from $mirror"
  apt-get "${apt_opts[@]}" -qq update >&2 ||
    die "apt-get update of a private source list failed (network or mirror): $(cat "$dir/sources.list")"
}

# Downloads the upstream (orig) tarball of source package $1 (e.g.
# rocksdb/trixie, through private_apt's deb-src lines) into directory $2 and
# prints its path. apt-helper verifies the sha256 the Sources index lists;
# the packaging files are not needed (and some mirrors answer 404 for them).
fetch_orig() {
  local source=$1 into=$2 line url file hash
  line=$(cd "$into" && apt-get "${apt_opts[@]}" source --print-uris "$source" 2>/dev/null |
    grep -E "^'[^']+\.orig\.tar\.[a-z0-9]+' " | head -n1) ||
    die "apt knows no source package $source"
  url=$(awk '{print $1}' <<<"$line" | tr -d "'")
  file=$(awk '{print $2}' <<<"$line")
  hash=$(awk '{print $4}' <<<"$line")
  log "downloading $file"
  /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$url" "$into/$file" "$hash" >&2 ||
    die "download of $url failed"
  echo "$into/$file"
}

# Downloads the binary packages "$3"... into directory $2 (through
# private_apt's deb lines; apt checks them against the signed index) and
# unpacks each into directory $1.
unpack_packages() {
  local root=$1 downloads=$2 deb
  shift 2
  mkdir -p "$root" "$downloads"
  (cd "$downloads" && apt-get "${apt_opts[@]}" -qq download "$@" >&2) ||
    die "apt-get download $* failed (network or mirror)"
  for deb in "$downloads"/*.deb; do
    dpkg-deb -x "$deb" "$root"
  done
}

# Configures, builds and installs RocksDB from source directory $1 (with
# engine_patches applied) in build directory $2 into prefix $3, where its
# compression libraries are installed already: Release with -DNDEBUG,
# position-independent, without RocksDB's per-thread perf context
# (-DNPERF_CONTEXT: pinrock exposes none,
# and in a shared library every update of its thread_local counters is a
# call to __tls_get_addr, about a quarter of a hot memtable get's time; see
# docs/benchmarking.md), with ROCKSDB_CMAKE_OPTIONS and the CMake arguments
# "$4"....
build_rocksdb() {
  local src=$1 build=$2 prefix=$3 patch
  shift 3
  for patch in "${engine_patches[@]}"; do
    log "applying $(basename "$patch")"
    patch -d "$src" -p1 --forward --quiet <"$patch" >&2 || die "$patch does not apply to RocksDB $ROCKSDB_VERSION"
  done
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="-DNDEBUG" -DCMAKE_CXX_FLAGS="-DNDEBUG -DNPERF_CONTEXT" \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$prefix" \
    -Dzstd_ROOT_DIR="$prefix" \
    -DBZIP2_INCLUDE_DIR="$prefix/include" -DBZIP2_LIBRARY_RELEASE="$prefix/lib/libbz2.a" \
    "${ROCKSDB_CMAKE_OPTIONS[@]}" "$@" >&2
  cmake --build "$build" -j"$engine_jobs" >&2
  cmake --install "$build" >&2
  [[ -f $prefix/lib/librocksdb.a ]] || die "RocksDB built but librocksdb.a was not installed"
}

# Marks the engine in prefix $1 complete and prints its path: writes its
# BUILD-INFO (the RocksDB source, the lines "$4"... and the seconds since
# the epoch time $3) and removes its work directory $2.
finish_engine() {
  local prefix=$1 work=$2 started=$3 elapsed
  shift 3
  elapsed=$(($(date +%s) - started))
  {
    echo "rocksdb $ROCKSDB_VERSION ($ROCKSDB_SOURCE, sha256 $ROCKSDB_SHA256)"
    printf '%s\n' "$@"
    echo "perf context compiled out (NPERF_CONTEXT)"
    echo "build seconds $elapsed"
  } >"$prefix/BUILD-INFO"
  touch "$prefix/.complete"
  rm -rf "$work"
  log "engine ready in ${elapsed}s: $prefix"
  echo "$prefix"
}

# Unpacks tarball $1 into a new directory under $2 and prints the single
# top-level directory it holds.
unpack_tarball() {
  local dir
  dir=$(mktemp -d "$2/src.XXXX")
  tar -xf "$1" -C "$dir"
  echo "$dir"/*
}
