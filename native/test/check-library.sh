#!/usr/bin/env bash
# Asserts that libpinrock.so is self-contained: it needs only glibc at run
# time (ldd) and exports only pinrock's own symbols (nm -D).
set -euo pipefail
lib=${1:?usage: check-library.sh path/to/libpinrock.so}
failed=0

# Everything a plain glibc system provides; anything else (libstdc++,
# libgcc_s, libzstd, ...) would have to be installed by the user.
glibc='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|/lib64/ld-linux-x86-64\.so\.2)$'
deps=$(ldd "$lib" | awk '{print $1}')
echo "ldd $lib:"
echo "$deps" | sed 's/^/  /'
foreign=$(echo "$deps" | grep -Ev "$glibc" || true)
if [[ -n $foreign ]]; then
  echo "FAIL: needs libraries beyond glibc: $foreign"
  failed=1
fi

# Defined dynamic symbols: pinrock's C ABI (pr_) and JNI entry points only.
exported=$(nm -D --defined-only "$lib" | awk '{print $3}')
count=$(echo "$exported" | grep -c . || true)
echo "nm -D --defined-only: $count symbols"
foreign=$(echo "$exported" | grep -Ev '^(pr_[a-z0-9_]+|Java_dev_pinrock_[A-Za-z0-9_]+|JNI_OnLoad|JNI_OnUnload)$' || true)
if [[ -n $foreign ]]; then
  echo "FAIL: exports symbols that are not pinrock's own:"
  echo "$foreign" | head -20 | sed 's/^/  /'
  failed=1
fi
if ! echo "$exported" | grep -q '^pr_db_open$'; then
  echo "FAIL: pr_db_open is not exported"
  failed=1
fi
[[ $failed == 0 ]] && echo "OK: libpinrock.so needs only glibc and exports only pinrock's symbols"
exit $failed
