#!/bin/sh
# Runs every C test built for another architecture under qemu-user (in-emulation.sh: the tests'
# own execs of vprof-simgpu and shells are emulated too, and the host's CUDA toolkit is hidden).
# Usage: emulated-check.sh ARCH OUTDIR    (ARCH: aarch64 or x86_64)
set -eu
arch=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${VPROF_IN_EMULATION:-}" ]; then
  exec "$here/in-emulation.sh" "$arch" "/usr/$arch-linux-gnu" "$0" "$arch" "$out"
fi
echo "== emulated $arch tests ($("$VPROF_IN_EMULATION" --version | head -n1))"
failed=0 ran=0
for t in "$out"/test/*_test; do
  [ -x "$t" ] || continue
  echo "== $t ($arch)"
  ran=$((ran + 1))
  timeout 600 "$t" || { echo "FAILED: $t (exit $?)"; failed=$((failed + 1)); }
done
[ "$ran" -gt 0 ] || { echo "vprof: no test binaries in $out/test" >&2; exit 2; }
echo "emulated $arch: $((ran - failed)) test programs passed, $failed failed"
[ "$failed" -eq 0 ]
