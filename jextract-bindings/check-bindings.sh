#!/usr/bin/env bash
# Fails when native/include/pinrock.h (or the generated sources) changed
# since the bindings were generated, so stale bindings cannot land.
#   check-bindings.sh           verify against bindings.sha256
#   check-bindings.sh --record  rewrite bindings.sha256 (regenerate.sh does)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
record=$here/bindings.sha256

fingerprint() {
  echo "header $(sha256sum <"$here/../native/include/pinrock.h" | cut -d' ' -f1)"
  echo "sources $(cd "$here/src/main/java" && find . -name '*.java' -print0 | LC_ALL=C sort -z |
    xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
}

if [[ ${1:-} == --record ]]; then
  fingerprint >"$record"
  echo "recorded $(tr '\n' ' ' <"$record")"
  exit 0
fi
if ! diff <(fingerprint) "$record" >/dev/null; then
  echo "ERROR: the jextract bindings are stale." >&2
  echo "  expected: $(tr '\n' ' ' <"$record")" >&2
  echo "  actual:   $(fingerprint | tr '\n' ' ')" >&2
  echo "  native/include/pinrock.h or jextract-bindings/src changed since the bindings were" >&2
  echo "  generated. Fix: JEXTRACT=/path/to/jextract jextract-bindings/regenerate.sh" >&2
  echo "  (never edit the generated sources by hand)." >&2
  exit 1
fi
echo "jextract bindings match native/include/pinrock.h"
