#!/usr/bin/env bash
# The CUPTI test double's own launch cost, this tree against another build of it: the
# simulator's launch loop (thread CPU per launch, median of RUNS interleaved runs) with no
# agent and with a dormant one, for both builds, so a change to native/src/sim can be held
# to "within noise". OTHER is the other build's native/target/native (e.g. a `git archive`
# of main, built with `make -C native`). Not a GPU figure.
#   bench/scripts/double-ab.sh OTHER_NATIVE_DIR [RUNS] [STEPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/scripts/lib.sh"
this="$root/native/target/native"
other=${1:?usage: double-ab.sh OTHER_NATIVE_DIR [RUNS] [STEPS]}
runs=${2:-21}
steps=${3:-50000}
for d in "$this" "$other"; do
  [ -x "$d/vprof-simgpu" ] && [ -f "$d/libvprof.so" ] || { echo "double-ab: $d has no vprof-simgpu and libvprof.so" >&2; exit 2; }
done
plain() { env -u CUDA_INJECTION64_PATH "$1/vprof-simgpu" --steps "$steps" 2>&1 >/dev/null | tail -n1 | field loop_cpu_ns; }
dormant() { env CUDA_INJECTION64_PATH="$1/libvprof.so" "$1/vprof-simgpu" --steps "$steps" 2>&1 >/dev/null | tail -n1 | field loop_cpu_ns; }
op=(); od=(); tp=(); td=()
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < runs; i++)); do # alternate the order, so neither always runs first
  if ((i % 2)); then tp+=("$(plain "$this")"); op+=("$(plain "$other")"); od+=("$(dormant "$other")"); td+=("$(dormant "$this")")
  else op+=("$(plain "$other")"); tp+=("$(plain "$this")"); td+=("$(dormant "$this")"); od+=("$(dormant "$other")"); fi
done
awk -v op="$(median "${op[@]}")" -v od="$(median "${od[@]}")" -v tp="$(median "${tp[@]}")" \
    -v td="$(median "${td[@]}")" -v k="$((steps * 40))" -v r="$runs" 'BEGIN {
  printf "launch loop of %d kernels, thread CPU per launch, median of %d interleaved runs (CUPTI test double)\n", k, r
  printf "                 other build   this tree   this/other\n"
  printf "  no agent:      %8.1f ns  %8.1f ns   %.4f\n", op/k, tp/k, tp/op
  printf "  dormant agent: %8.1f ns  %8.1f ns   %.4f\n", od/k, td/k, td/od }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
