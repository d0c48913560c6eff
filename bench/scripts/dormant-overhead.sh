#!/usr/bin/env bash
# Does a dormant agent slow the target's kernel-launch loop? Runs the synthetic GPU
# process (CUPTI test double) alternately without the agent and with a dormant one
# (CUDA_INJECTION64_PATH set, never armed), and compares the medians of the launch
# loop's own thread CPU time (loop_cpu_ns in its summary line; wall time, loop_ns,
# is printed too but moves with the machine's load). Not a GPU figure.
#   bench/scripts/dormant-overhead.sh [RUNS] [STEPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/scripts/lib.sh"
native="$root/native/target/native"
runs=${1:-21}
steps=${2:-50000}
[ -x "$native/vprof-simgpu" ] || make -C "$root/native" -s all
p_cpu=(); d_cpu=(); p_wall=(); d_wall=()
plain() {
  line=$(env -u CUDA_INJECTION64_PATH "$native/vprof-simgpu" --steps "$steps" 2>&1 >/dev/null | tail -n1)
  p_cpu+=("$(field loop_cpu_ns <<<"$line")"); p_wall+=("$(field loop_ns <<<"$line")")
}
dormant() {
  line=$(env CUDA_INJECTION64_PATH="$native/libvprof.so" "$native/vprof-simgpu" --steps "$steps" 2>&1 >/dev/null | tail -n1)
  d_cpu+=("$(field loop_cpu_ns <<<"$line")"); d_wall+=("$(field loop_ns <<<"$line")")
}
# Alternate which goes first, so that neither always runs right after the other.
for ((i = 0; i < runs; i++)); do
  if ((i % 2)); then dormant; plain; else plain; dormant; fi
done
awk -v pc="$(median "${p_cpu[@]}")" -v dc="$(median "${d_cpu[@]}")" \
    -v pw="$(median "${p_wall[@]}")" -v dw="$(median "${d_wall[@]}")" \
    -v k="$((steps * 40))" -v r="$runs" 'BEGIN {
  printf "launch loop of %d kernels, median of %d alternating runs each (CUPTI test double, not a GPU)\n", k, r
  printf "                 thread CPU            wall\n"
  printf "  no agent:      %7.1f ms %6.1f ns/k   %7.1f ms\n", pc/1e6, pc/k, pw/1e6
  printf "  dormant agent: %7.1f ms %6.1f ns/k   %7.1f ms\n", dc/1e6, dc/k, dw/1e6
  printf "  ratio dormant/no agent: CPU %.4f, wall %.4f\n", dc/pc, dw/pw }'
