#!/usr/bin/env bash
# Builds vprof's native parts from a copy of the sources with no CUDA toolkit visible, then runs
# `vprof demo` (the simulated server, its dormant agents, one capture, the exports) on what that
# build produced; the Java bindings are generated there too. "No toolkit
# visible": CUDA_HOME is empty, CUDA_PATH unset, and, in a private user and mount namespace, an
# empty tmpfs over /usr/local/cuda, /usr/local/cuda-*, /opt/cuda and the toolkit find-cuda.sh
# would pick, and /dev/null over every nvcc; nothing changes for the rest of the machine.
# It then proves the hiding worked (no nvcc, find-cuda.sh finds nothing, gcc cannot include
# <cupti.h>) before building.
#
# Needs the jar (mvn -B package; CI runs this after mvn -B verify) and a JDK the launcher finds.
#   scripts/no-cuda-check.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jar="$root/java/target/vprof.jar"
[ -f "$jar" ] || { echo "no-cuda-check: $jar is missing: build it first (mvn -B package)" >&2; exit 2; }

if [ -z "${VPROF_NO_CUDA_INSIDE:-}" ]; then
  if unshare --user --map-root-user --mount true 2>/dev/null; then
    VPROF_NO_CUDA_INSIDE=1 exec unshare --user --map-root-user --mount "$0" "$@"
  fi
  # Without a namespace the toolkit cannot be hidden; that proves nothing unless there is none.
  if toolkit=$("$root/native/find-cuda.sh" 2>/dev/null); then
    echo "no-cuda-check: cannot create a user namespace here (unshare --user) to hide the CUDA toolkit at $toolkit" >&2
    exit 2
  fi
  echo "no-cuda-check: no user namespace, but no CUDA toolkit on this machine either"
else
  hide() {
    local d; d=$(readlink -f "$1") || return 0
    [ -d "$d" ] && ! mountpoint -q "$d" && mount -t tmpfs -o size=1m none "$d"
    return 0
  }
  toolkit=$("$root/native/find-cuda.sh" 2>/dev/null || true)
  for d in /usr/local/cuda /opt/cuda "${CUDA_HOME:-}" "${CUDA_PATH:-}" "$toolkit" /usr/local/cuda-*; do
    [ -n "$d" ] && [ -e "$d" ] && hide "$d"
  done
fi

# No nvcc on PATH: folders holding one leave PATH (in the namespace the nvcc itself is covered by
# /dev/null too, so it cannot run from its full path either).
path=""
IFS=: read -r -a entries <<<"$PATH"
for e in "${entries[@]}"; do
  [ -n "$e" ] || continue
  if [ -e "$e/nvcc" ]; then
    [ -n "${VPROF_NO_CUDA_INSIDE:-}" ] && mount --bind /dev/null "$(readlink -f "$e/nvcc")"
    continue
  fi
  path="${path:+$path:}$e"
done
export PATH="$path" CUDA_HOME=""
unset CUDA_PATH VPROF_REQUIRE_CUPTI_CHECK

if command -v nvcc >/dev/null 2>&1; then echo "no-cuda-check: nvcc is still on PATH: $(command -v nvcc)" >&2; exit 1; fi
if where=$("$root/native/find-cuda.sh" 2>/dev/null); then echo "no-cuda-check: find-cuda.sh still finds a toolkit at $where" >&2; exit 1; fi
if echo '#include <cupti.h>' | gcc -E -x c - >/dev/null 2>&1; then
  echo "no-cuda-check: gcc still finds a cupti.h in its default include path; this test cannot hide it" >&2; exit 1
fi
echo "no-cuda-check: no CUDA toolkit visible (CUDA_HOME empty, no nvcc, find-cuda.sh finds none, no <cupti.h>)"

work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-no-cuda-XXXXXX")
trap 'rm -rf "$work"' EXIT
# The native sources as they are in this tree, without its build outputs.
tar -C "$root" --exclude=native/target -cf - native | tar -C "$work" -xf -

printf 'no-cuda-check: %-46s' "make -C native all (a fresh copy)"
s=$(date +%s)
make -C "$work/native" -j2 all >"$work/make.log" 2>&1 || { echo FAILED; tail -n 30 "$work/make.log"; exit 1; }
if grep -n -i -- '-I[^ ]*cuda' "$work/make.log"; then echo "FAILED: the build named a CUDA include path"; exit 1; fi
echo "ok ($(( $(date +%s) - s )) s)"

printf 'no-cuda-check: %-46s' "the CUPTI declarations cross-check"
out=$("$work/native/abi/cupti-abi-check.sh" "$work/native/target/abi")
case "$out" in
  "cupti-abi: skipped: no CUDA headers"*) echo "skipped, as it must be without headers" ;;
  *) echo "FAILED: expected it to skip: $out"; exit 1 ;;
esac

printf 'no-cuda-check: %-46s' "jextract: Java bindings from vprof_ring.h"
"$root/jextract/generate.sh" --stdout >"$work/VprofRing.java" 2>"$work/jextract.log" ||
  { echo FAILED; cat "$work/jextract.log"; exit 1; }
cmp -s "$work/VprofRing.java" "$root/bindings/src/main/java/dev/vprof/bindings/VprofRing.java" ||
  { echo "FAILED: they differ from bindings/ (jextract/generate.sh regenerates them)"; exit 1; }
echo "ok"

printf 'no-cuda-check: %-46s' "vprof demo on that build"
s=$(date +%s)
# The launcher runs the jar as built; vprof.native.dir makes it use this build's native files.
if ! JAVA_TOOL_OPTIONS="-Dvprof.native.dir=$work/native/target/native" VPROF_NO_BUILD=1 \
     "$root/vprof" demo --dir "$work/demo" >"$work/demo.log" 2>&1; then
  echo FAILED; tail -n 30 "$work/demo.log"; for f in "$work"/demo/worker-*.log; do [ -f "$f" ] && tail -n 5 "$f"; done; exit 1
fi
for f in capture.vprof trace.pftrace trace.json report.txt; do
  [ -s "$work/demo/$f" ] || { echo "FAILED: the demo wrote no $f"; tail -n 30 "$work/demo.log"; exit 1; }
done
kernels=$(sed -n 's/^summary: .*, \([0-9][0-9]*\) kernels .*/\1/p' "$work/demo/report.txt" | head -n1)
[ "${kernels:-0}" -gt 0 ] || { echo "FAILED: the capture holds no kernels"; head -n 20 "$work/demo/report.txt"; exit 1; }
echo "ok ($(( $(date +%s) - s )) s, $kernels kernels captured)"
echo "no-cuda-check: built with gcc alone and captured the demo end to end"
