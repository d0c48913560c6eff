#!/usr/bin/env bash
# The GPU bundle on a machine without a GPU, run by `mvn verify` (bench
# module, after the jar is built): builds target/gpu-bundle from that jar, runs its gpu-check.sh
# with `env -i PATH=/usr/bin:/bin`, and checks that the bundled runtime started (doctor names it),
# that the check said there is no GPU and exited 0, and that it wrote its outputs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; then
  echo "gpu-bundle-test: this machine has an NVIDIA GPU: run target/gpu-bundle/gpu-check.sh OUTDIR by hand (up to 8 minutes)"
  "$root/bench/scripts/gpu-bundle.sh" --no-build
  exit 0
fi
"$root/bench/scripts/gpu-bundle.sh" --no-build
out=$(mktemp -d "${TMPDIR:-/tmp}/vprof-gpu-bundle-test-XXXXXX")
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
rc=0
env -i PATH=/usr/bin:/bin "$root/target/gpu-bundle/gpu-check.sh" "$out/check" > "$out/console.txt" 2>&1 || rc=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
fail() { echo "gpu-bundle-test: FAILED: $*"; cat "$out/console.txt"; exit 1; }
[ "$rc" -eq 0 ] || fail "gpu-check.sh exited $rc"
grep -q "no NVIDIA GPU on this machine" "$out/check/gpu-check.txt" || fail "the check did not say there is no GPU"
grep -q "no NVIDIA GPU here" "$out/check/selftest/selftest.txt" || fail "selftest --gpu --out wrote no table"
grep -Eq "^OK +jdk .*/runtime" "$out/check/environment.txt" || fail "doctor did not run on the bundled runtime"
echo "gpu-bundle-test: 1 passed, 0 failed (bundle $(du -sh "$root/target/gpu-bundle" | cut -f1), check ${took} s without a GPU)"
