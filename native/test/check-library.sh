#!/usr/bin/env bash
# Asserts that libpinrock.so is self-contained, for any CPU (readelf reads
# every ELF): it needs only glibc's libraries, no glibc symbol version newer
# than FLOOR (e.g. 2.17), and exports only pinrock's own symbols.
set -euo pipefail
lib=${1:?usage: check-library.sh path/to/libpinrock.so GLIBC_FLOOR}
floor=${2:?usage: check-library.sh path/to/libpinrock.so GLIBC_FLOOR}
failed=0
echo "$lib: $(readelf -h "$lib" | awk -F: '/Machine/ {gsub(/^ +/, "", $2); print $2}')"

# Everything a plain glibc system provides; anything else (libstdc++,
# libgcc_s, libzstd, ...) would have to be installed by the user.
glibc='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1)$'
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "needed: $(echo $needed)"
foreign=$(echo "$needed" | grep -Ev "$glibc" || true)
if [[ -n $foreign ]]; then
  echo "FAIL: needs libraries beyond glibc: $foreign"
  failed=1
fi

# The glibc versions its imports need: none may be newer than the floor.
newest=$(readelf -V "$lib" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n1)
echo "newest glibc symbol version needed: GLIBC_$newest (floor GLIBC_$floor)"
if [[ $(printf '%s\n%s\n' "$newest" "$floor" | sort -V | tail -n1) != "$floor" ]]; then
  echo "FAIL: needs GLIBC_$newest, newer than the floor; these symbols:"
  readelf --dyn-syms -W "$lib" | grep -E "@GLIBC_[0-9.]+" | awk '{print $8}' |
    while IFS=@ read -r symbol version; do
      [[ $(printf '%s\n%s\n' "${version#GLIBC_}" "$floor" | sort -V | tail -n1) == "$floor" ]] ||
        echo "  $symbol@$version"
    done
  failed=1
fi

# Defined global dynamic symbols: pinrock's C ABI (pr_) and JNI entry points only.
exported=$(readelf --dyn-syms -W "$lib" | awk '$5 == "GLOBAL" && $7 != "UND" && $8 != "" {print $8}' | sed 's/@.*//')
count=$(echo "$exported" | grep -c . || true)
echo "exported: $count symbols"
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
[[ $failed == 0 ]] && echo "OK: libpinrock.so needs only glibc up to GLIBC_$floor and exports only pinrock's symbols"
exit $failed
