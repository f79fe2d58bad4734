#!/usr/bin/env bash
# Prints the path of a root of Debian bullseye's amd64 C library (glibc
# 2.31, the oldest the mirror serves), unpacked and cached: in-bullseye runs
# the x86-64 tests in it, with the machine's own JDK (whose launcher and
# libjvm need only libc). chattr (e2fsprogs) is there for the test that
# makes a directory immutable. Output as build-engine.sh's: the path on the
# last line of stdout.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/roots.sh"

unpacked_root amd64-bullseye amd64 bullseye lib/x86_64-linux-gnu/libc.so.6 \
  libc6 libgcc-s1 e2fsprogs libext2fs2 libcom-err2
