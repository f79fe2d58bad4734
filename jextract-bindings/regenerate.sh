#!/usr/bin/env bash
# Regenerates the committed FFM bindings from native/include/pinrock.h and
# records the header's hash (and the generated sources' hash) that the build
# checks. jextract is not part of the build: point JEXTRACT at a jextract
# whose output compiles with --release 22 (e.g. one built from
# openjdk/jextract at commit 0b89a46).
#   JEXTRACT=/path/to/bin/jextract jextract-bindings/regenerate.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
header=$here/../native/include/pinrock.h
jextract=${JEXTRACT:?set JEXTRACT to the jextract executable}
[[ -x $jextract ]] || { echo "JEXTRACT=$jextract is not executable" >&2; exit 1; }

out=$here/src/main/java
includes=$(mktemp)
trap 'rm -f "$includes"' EXIT
# Bind pinrock.h's own declarations only, not those of the system headers.
"$jextract" --dump-includes "$includes.all" "$header" >/dev/null
grep -E '# header: .*/pinrock\.h$' "$includes.all" | awk '{print $1, $2}' >"$includes"
rm -f "$includes.all"
rm -rf "$out/dev/pinrock/bindings"
"$jextract" --output "$out" --target-package dev.pinrock.bindings \
  --header-class-name PinrockNative @"$includes" "$header"
"$here/check-bindings.sh" --record
