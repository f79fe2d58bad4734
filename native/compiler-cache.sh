# Sourced by build.sh and test.sh (not run): the CMake arguments that compile
# pinrock's sources through ccache when it is installed (scripts/lib.sh
# installs it), in compiler_cache_args. The cache lives beside the engines
# (${PINROCK_CACHE_DIR:-~/.cache/pinrock}/ccache), and paths below the
# repository are hashed relative to it: a clean clone on a machine that has
# built pinrock before compiles only the sources that changed.
compiler_cache_args=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-${PINROCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pinrock}/ccache}
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
  CCACHE_BASEDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  # The instrumented objects carry debug information: without this their
  # hash would include the build directory's absolute path.
  export CCACHE_BASEDIR CCACHE_NOHASHDIR=1
  compiler_cache_args=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
