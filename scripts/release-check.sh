#!/usr/bin/env bash
# Checks a release archive as a user without a build environment would meet it: unpacked into an
# empty folder and run with `env -i PATH=/usr/bin:/bin`, inside a private mount namespace where
# the machine's JDKs, Maven, gcc and CUDA toolkit are hidden (when user namespaces are allowed;
# otherwise it says so and runs with them present). It runs `./vprof demo` to the end, then
# `vprof launch` of the synthetic GPU process, `vprof attach` to it with the OTLP receivers on,
# `vprof report`, `vprof export`, `vprof agent-path` and `vprof doctor`.
#
# An archive of the other architecture runs the same way under qemu-user
# (native/cross/in-emulation.sh), on Debian 13's libraries (scripts/debian-trixie.sh sysroot, or
# VPROF_SYSROOT_<arch>), slowly: the demo takes about a minute there.
#
#   scripts/release-check.sh [ARCHIVE]     (default: this machine's archive in target/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${1:-$(ls -t "$root"/target/release/vprof-*-linux-"$(uname -m)".tar.gz 2>/dev/null | head -n1)}
[ -n "$archive" ] && [ -f "$archive" ] || { echo "release-check.sh: no archive; run scripts/release.sh first" >&2; exit 2; }
archive=$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")
arch=$(basename "$archive" .tar.gz); arch=${arch##*-linux-}

if [ -z "${VPROF_RELEASE_CHECK_INSIDE:-}" ] && [ "$arch" != "$(uname -m)" ]; then
  sysroot_var="VPROF_SYSROOT_$arch"
  sysroot=${!sysroot_var:-$("$root/scripts/debian-trixie.sh" sysroot "$arch" "$root/target/tools")}
  echo "release-check: $arch archive on $(uname -m): under qemu-user, libraries from $sysroot"
  VPROF_RELEASE_CHECK_INSIDE=1 exec "$root/native/cross/in-emulation.sh" "$arch" "$sysroot" "$0" "$archive"
fi
if [ -z "${VPROF_RELEASE_CHECK_INSIDE:-}" ] && unshare --user --map-root-user --mount true 2>/dev/null; then
  VPROF_RELEASE_CHECK_INSIDE=1 exec unshare --user --map-root-user --mount "$0" "$archive"
fi
if [ -n "${VPROF_RELEASE_CHECK_INSIDE:-}" ]; then
  for d in /usr/lib/jvm /usr/local/lib/jvm /usr/share/maven /opt/cuda /usr/local/cuda "$HOME/.sdkman" "$HOME/.jdks" /usr/local/cuda-*; do
    [ -e "$d" ] && ! mountpoint -q "$(readlink -f "$d")" && mount -t tmpfs -o size=1m none "$(readlink -f "$d")"
  done
  for tool in gcc cc c99 mvn javac java nvcc; do
    p=$(PATH=/usr/bin:/bin command -v "$tool" 2>/dev/null) || continue
    p=$(readlink -f "$p") && [ -f "$p" ] && mount --bind /dev/null "$p"
  done
  for tool in java javac mvn gcc cc nvcc; do
    if env -i PATH=/usr/bin:/bin sh -c "$tool -version" >/dev/null 2>&1; then
      echo "release-check.sh: $tool still runs inside the namespace" >&2; exit 1; fi
  done
  echo "release-check: JDKs, Maven, gcc and CUDA are hidden in this namespace"
else
  echo "release-check: WARNING: no user namespace here, so JDKs, Maven, gcc and CUDA stay visible"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-release-check-XXXXXX")
launched=""
cleanup() { [ -n "$launched" ] && kill "$launched" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
tar -C "$work" -xzf "$archive"
cd "$work"/vprof-*/
# Under emulation qemu needs its library prefix, the only variable added to an empty environment.
run() { env -i PATH=/usr/bin:/bin ${QEMU_LD_PREFIX:+QEMU_LD_PREFIX="$QEMU_LD_PREFIX"} "$@"; }
step() { printf 'release-check: %-68s' "$1"; }
t0=$(date +%s.%N)

step "./vprof demo"
s=$(date +%s.%N)
run ./vprof demo > demo.log 2>&1 || { echo FAILED; tail -n 30 demo.log; exit 1; }
grep -q "vprof demo: done" demo.log && [ -s vprof-demo/trace.pftrace ] || { echo FAILED; tail -n 30 demo.log; exit 1; }
printf 'ok (%.1f s)\n' "$(echo "$(date +%s.%N) - $s" | awk '{print $1 - $3}')"

step "./vprof launch -- native/vprof-simgpu --workers 2"
run ./vprof launch --log "$PWD/sim-%p.log" -- "$PWD/native/vprof-simgpu" --workers 2 --duration 60s --step-us 1000 > launch.log 2>&1 \
  || { echo FAILED; cat launch.log; exit 1; }
launched=$(sed -n 's/.*launched pid \([0-9]*\).*/\1/p' launch.log | head -n1)
[ -n "$launched" ] || { echo FAILED; cat launch.log; exit 1; }
echo "ok (pid $launched)"

step "./vprof attach --pid $launched --duration 3s (OTLP gRPC+HTTP on)"
run ./vprof attach --pid "$launched" --duration 3s --otlp-grpc 127.0.0.1:0 --otlp-http 127.0.0.1:0 -o a.vprof > attach.log 2>&1 \
  || { echo FAILED; cat attach.log; exit 1; }
echo ok
kill "$launched" 2>/dev/null || true
launched=""

step "./vprof report --json a.vprof (kernels recorded)"
run ./vprof report --json a.vprof > report.json 2> report.err || { echo FAILED; cat report.err; exit 1; }
kernels=$(grep -o '"kernels" *: *[0-9]*' report.json | head -n1 | grep -o '[0-9]*$' || true)
[ "${kernels:-0}" -gt 0 ] || { echo "FAILED: no kernels"; head -c 2000 report.json; exit 1; }
echo "ok ($kernels kernels)"

step "./vprof export a.vprof -o a.pftrace"
run ./vprof export a.vprof -o a.pftrace > export.log 2>&1 && [ -s a.pftrace ] || { echo FAILED; cat export.log; exit 1; }
echo ok

step "./vprof export a.vprof -o a.sqlite (the runtime's java.sql and sqlite-jdbc's native library)"
run ./vprof export a.vprof -o a.sqlite > export-sqlite.log 2>&1 && [ -s a.sqlite ] || { echo FAILED; cat export-sqlite.log; exit 1; }
echo ok

step "./vprof agent-path (inside the unpacked folder)"
agent=$(run ./vprof agent-path)
[ "$agent" = "$PWD/native/libvprof.so" ] || { echo "FAILED: $agent"; exit 1; }
echo ok

step "./vprof doctor (the bundled runtime, the agent)"
run ./vprof doctor > doctor.log 2>&1 || true
grep -q "^OK *jdk .*$PWD/runtime" doctor.log && grep -q "^OK *agent" doctor.log || { echo FAILED; cat doctor.log; exit 1; }
echo ok

printf 'release-check: %s passed in %.1f s\n' "$(basename "$archive")" "$(echo "$(date +%s.%N) - $t0" | awk '{print $1 - $3}')"
