#!/usr/bin/env bash
# Does a finished capture leave a cost on every kernel launch? (docs/cupti-field-facts.md R7.) Runs
# native/test/agent_field_target launch-cost, which times launches before a cudaProfilerApi
# range and again after it ended, in one process, three ways, alternating:
#   no agent                    the double alone (its launch cost does not change)
#   agent, CUDA 13.0 Update 1   the agent finalizes CUPTI once DORMANT again (repeat=1)
#   agent, "CUDA 12.5"          VPROF_SIM_CUPTI_VERSION=23: the agent does not finalize
#                               (finalize with graphs is not safe before 12.6)
# The test double charges VPROF_SIM_POST_CAPTURE_COST_NS (default 10 ns) per launch after a
# capture until cuptiFinalize, as PyTorch measured on GPUs (#146604); the figures are the
# double's, not a GPU's. Prints the median after/before ratio of each.
#   bench/scripts/post-capture-cost.sh [RUNS] [LAUNCHES_PER_ROUND]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/scripts/lib.sh"
native="$root/native/target/native"
runs=${1:-11}
n=${2:-20000}
[ -x "$native/test/agent_field_target" ] || make -C "$root/native" -s check >/dev/null
target="$native/test/agent_field_target"
arm="mode=profiler,repeat=1,kinds=1"
ratio() { sed -n 's/.* ratio=\([0-9.]*\).*/\1/p' | tail -n1; }
before() { sed -n 's/.* launch_ns_before=\([0-9.]*\).*/\1/p' | tail -n1; }
plain=(); fin=(); nofin=(); base=()
one() { # $1: which
  local out
  case $1 in
    plain) out=$(env -u CUDA_INJECTION64_PATH "$target" launch-cost "$n" 2>&1 >/dev/null) ;;
    fin) out=$(env CUDA_INJECTION64_PATH="$native/libvprof.so" VPROF_ARM="$arm" "$target" launch-cost "$n" 2>&1 >/dev/null) ;;
    nofin) out=$(env CUDA_INJECTION64_PATH="$native/libvprof.so" VPROF_ARM="$arm" VPROF_SIM_CUPTI_VERSION=23 \
                 "$target" launch-cost "$n" 2>&1 >/dev/null) ;;
  esac
  r=$(ratio <<<"$out")
  case $1 in plain) plain+=("$r"); base+=("$(before <<<"$out")") ;; fin) fin+=("$r") ;; nofin) nofin+=("$r") ;; esac
}
for ((i = 0; i < runs; i++)); do
  case $((i % 3)) in
    0) one plain; one fin; one nofin ;;
    1) one fin; one nofin; one plain ;;
    2) one nofin; one plain; one fin ;;
  esac
done
printf 'launch cost after a finished capture / before it, median of %d runs, %d launches per round (CUPTI test double, not a GPU)\n' "$runs" "$n"
printf '  no agent:                            %s  (a launch costs %s ns here)\n' "$(median "${plain[@]}")" "$(median "${base[@]}")"
printf '  agent, CUDA 13.0 U1 (finalizes):     %s\n' "$(median "${fin[@]}")"
printf '  agent, CUDA 12.5 (cannot finalize):  %s\n' "$(median "${nofin[@]}")"
