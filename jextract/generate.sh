#!/usr/bin/env bash
# Regenerates the Java bindings from native/include/vprof_ring.h.
#   jextract/generate.sh            write bindings/src/main/java/dev/vprof/bindings/VprofRing.java
#                                   and CuptiCallbackIds.java beside it
#   jextract/generate.sh --stdout   print what would be written as VprofRing.java
#   jextract/generate.sh --stdout cupti   the same for CuptiCallbackIds.java
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-gcc}" -std=c11 -Wall -Werror -I"$root/native/include" -I"$root/native/src" -I"$here" "$here/gen_bindings.c" -o "$work/gen"
out="$root/bindings/src/main/java/dev/vprof/bindings"
if [ "${1:-}" = "--stdout" ]; then
  "$work/gen" ${2:+"$2"}
else
  "$work/gen" > "$out/VprofRing.java"
  "$work/gen" cupti > "$out/CuptiCallbackIds.java"
fi
