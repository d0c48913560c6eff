#!/bin/sh
# Runs every C test built for another architecture under qemu-user.
#
# The tests start other programs of that architecture (vprof-simgpu, its workers, shells that
# run them), so calling qemu on each test binary is not enough: the kernel must hand every
# exec of such a binary to qemu. That is binfmt_misc, which this script registers only inside
# a user and mount namespace of its own (a sandboxed binfmt_misc, Linux 6.7 or newer):
# nothing changes for the rest of the machine, and no privilege beyond creating a user
# namespace is needed. In the same namespace the host's CUDA toolkit is hidden (an empty
# tmpfs over it): its libcupti is for the host's architecture and must not be found.
# Usage: emulated-check.sh ARCH OUTDIR    (ARCH: aarch64 or x86_64)
set -eu
arch=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
case "$arch" in
  aarch64) magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
           mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff' ;;
  x86_64)  magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00'
           mask='\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff' ;;
  *) echo "vprof: no emulation set up for $arch" >&2; exit 2 ;;
esac
sysroot=/usr/$arch-linux-gnu
[ -d "$sysroot/lib" ] || { echo "vprof: $sysroot/lib is missing: apt-get install libc6-$( [ "$arch" = aarch64 ] && echo arm64 || echo amd64 )-cross" >&2; exit 2; }
qemu=$("$here/find-qemu.sh" "$arch" "$here/../target/tools")

if [ -z "${VPROF_EMULATED_INSIDE:-}" ]; then
  if ! unshare --user --map-root-user --mount true 2>/dev/null; then
    echo "vprof: cannot create a user namespace here (unshare --user); emulated tests need one" >&2; exit 2
  fi
  export VPROF_EMULATED_INSIDE=1
  exec unshare --user --map-root-user --mount "$0" "$@"
fi

mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || {
  echo "vprof: no sandboxed binfmt_misc here (needs Linux 6.7 or newer, found $(uname -r))" >&2; exit 2; }
printf '%s' ":vprof-$arch:M::$magic:$mask:$qemu:" > /proc/sys/fs/binfmt_misc/register
for d in /usr/local/cuda /opt/cuda "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
  [ -n "$d" ] && [ -e "$d" ] && mount -t tmpfs -o size=1m none "$(readlink -f "$d")"
done
unset CUDA_HOME CUDA_PATH
export QEMU_LD_PREFIX="$sysroot"

echo "== emulated $arch tests ($qemu, $("$qemu" --version | head -n1))"
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
