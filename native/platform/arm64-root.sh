#!/usr/bin/env bash
# Prints the path of a root of arm64 Debian trixie packages, unpacked (not
# installed) and cached: glibc, the C++ runtime, zlib and OpenJDK 25. The
# aarch64 tests run in it under qemu-aarch64-static user-mode emulation: the
# native tests (the engine's toolchain file names it as their emulator) and
# the Java tests (jdk-aarch64/bin/java runs that JDK). Output as
# build-engine.sh's: the path on the last line of stdout.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/roots.sh"

unpacked_root arm64-trixie arm64 trixie usr/lib/jvm/java-25-openjdk-arm64/bin/java \
  libc6 libgcc-s1 libstdc++6 zlib1g openjdk-25-jre-headless openjdk-25-jdk-headless
