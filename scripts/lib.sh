# Shared by the set-up commands (sourced, not run). Installs what pinrock
# needs and selects a JDK >= 22; every failure names its fix.

PINROCK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Debian packages the build and the tests need: python3-pip fetches the
# compiler of the shipped libraries (zig, from PyPI), qemu-user-static runs
# the aarch64 tests, ccache keeps the native objects between clean clones,
# llvm-16 holds the symbolizer the sanitizers' reports name functions with.
PINROCK_APT_PACKAGES=(build-essential ccache cmake ninja-build maven libgtest-dev liblz4-dev libsnappy-dev
  zlib1g-dev xz-utils tar debian-archive-keyring e2fsprogs ca-certificates valgrind
  clang-16 libclang-rt-16-dev llvm-16 python3-pip qemu-user-static)

say() { printf '[pinrock] %s\n' "$*" >&2; }
die() { printf '[pinrock] ERROR: %s\n' "$*" >&2; exit 1; }

# Installs the missing Debian packages (as root, or through sudo).
install_packages() {
  local missing=() package
  for package in "${PINROCK_APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  [[ ${#missing[@]} == 0 ]] && return 0
  local sudo=()
  if [[ $(id -u) != 0 ]]; then
    command -v sudo >/dev/null ||
      die "missing packages ${missing[*]}: run as root, or: apt-get install ${missing[*]}"
    sudo=(sudo)
  fi
  say "installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq ||
    die "apt-get update failed: check the network and /etc/apt/sources.list(.d)"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
}

# Prints the feature version of the JDK at $1 (e.g. 25), or nothing.
jdk_version() {
  [[ -x $1/bin/java && -x $1/bin/javac ]] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 |
    awk -F' = ' '/java.specification.version/ {print $2}'
}

# Exports JAVA_HOME (and PATH) for the newest JDK >= 22: $JAVA_HOME when it
# qualifies, otherwise the newest under /usr/lib/jvm.
select_jdk() {
  local candidate best="" best_version=0 version
  if [[ -n ${JAVA_HOME:-} ]]; then
    version=$(jdk_version "$JAVA_HOME")
    if [[ -n $version && $version -ge 22 ]]; then
      best=$JAVA_HOME best_version=$version
    fi
  fi
  if [[ -z $best ]]; then
    for candidate in /usr/lib/jvm/*; do
      version=$(jdk_version "$candidate")
      if [[ -n $version && $version -ge 22 && $version -gt $best_version ]]; then
        best=$candidate best_version=$version
      fi
    done
  fi
  [[ -n $best ]] || die "no JDK 22 or newer found (JAVA_HOME=${JAVA_HOME:-unset}, /usr/lib/jvm): install one (e.g. Temurin 25) and set JAVA_HOME to it"
  export JAVA_HOME=$best
  export PATH=$JAVA_HOME/bin:$PATH
  # Maven's own libraries use sun.misc.Unsafe; JDK 24+ warns about it on every run.
  if [[ $best_version -ge 24 ]]; then
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
  fi
  say "using JDK $best_version at $JAVA_HOME"
}

# Installs the packages, selects the JDK, and checks Maven.
prepare() {
  install_packages
  select_jdk
  command -v mvn >/dev/null || die "mvn not found: apt-get install maven"
}
