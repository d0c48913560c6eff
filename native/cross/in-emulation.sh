#!/bin/sh
# Runs CMD where programs of another architecture run as if native: in a user and mount
# namespace of its own, with a sandboxed binfmt_misc (Linux 6.7 or newer) that hands every exec
# of an ARCH program to qemu-user, including the execs those programs make themselves (shells,
# vprof-simgpu and its workers, the JVM's helpers). Nothing changes for the rest of the machine
# and no privilege beyond creating a user namespace is needed. In the namespace the host's CUDA
# toolkit is hidden (an empty tmpfs over it): its libraries are of the host's architecture.
# Usage: in-emulation.sh ARCH SYSROOT CMD [ARGS...]   (ARCH: aarch64 or x86_64; SYSROOT: the
# target's libraries, e.g. /usr/aarch64-linux-gnu from Debian's libc6-arm64-cross)
set -eu
arch=$1 sysroot=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
case "$arch" in
  aarch64) magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
           mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff' ;;
  x86_64)  magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00'
           mask='\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff' ;;
  *) echo "vprof: no emulation set up for $arch" >&2; exit 2 ;;
esac
[ -d "$sysroot/lib" ] || { echo "vprof: $sysroot/lib is missing (apt-get install libc6-$([ "$arch" = aarch64 ] && echo arm64 || echo amd64)-cross)" >&2; exit 2; }

if [ -z "${VPROF_IN_EMULATION:-}" ]; then
  qemu=$("$here/find-qemu.sh" "$arch" "$here/../target/tools")
  unshare --user --map-root-user --mount true 2>/dev/null \
    || { echo "vprof: cannot create a user namespace here (unshare --user); emulation needs one" >&2; exit 2; }
  VPROF_IN_EMULATION=$qemu exec unshare --user --map-root-user --mount "$0" "$arch" "$sysroot" "$@"
fi
mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
  || { echo "vprof: no sandboxed binfmt_misc here (needs Linux 6.7 or newer, found $(uname -r))" >&2; exit 2; }
printf '%s' ":vprof-$arch:M::$magic:$mask:$VPROF_IN_EMULATION:" > /proc/sys/fs/binfmt_misc/register
for d in /usr/local/cuda /opt/cuda "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda-*; do
  [ -n "$d" ] && [ -e "$d" ] && mount -t tmpfs -o size=1m none "$(readlink -f "$d")"
done
unset CUDA_HOME CUDA_PATH
export QEMU_LD_PREFIX="$sysroot"
exec "$@"
