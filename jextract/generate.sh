#!/usr/bin/env bash
# Regenerates the Java bindings from native/include/vprof_ring.h.
#   jextract/generate.sh            write bindings/src/main/java/dev/vprof/bindings/VprofRing.java
#   jextract/generate.sh --stdout   print what would be written
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-gcc}" -std=c11 -Wall -Werror -I"$root/native/include" -I"$here" "$here/gen_bindings.c" -o "$work/gen"
if [ "${1:-}" = "--stdout" ]; then
  "$work/gen"
else
  "$work/gen" > "$root/bindings/src/main/java/dev/vprof/bindings/VprofRing.java"
fi
