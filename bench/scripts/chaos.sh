#!/usr/bin/env bash
# The chaos drill (docs/reliability.md): CYCLES attach/detach cycles against a two-worker
# synthetic server (vprof-simgpu --workers 2 --serve, fed steps as fast as it takes them), the
# front end SIGKILLed at a random moment in a third of them. Fails unless targets harmed = 0,
# every file reads and every whole range accounts exactly for its kernels. It is
# java/src/test/java/dev/vprof/cli/ChaosDrillTest, which CI runs with 10 cycles.
#   bench/scripts/chaos.sh [CYCLES] [SEED] [RING]   (default 100 cycles, a random seed, 64 KiB rings
#                                                   that this load overflows; RING=default: the agent's
#                                                   64 MiB, where nothing overflows)
# Prints the drill's summary line, the machine and the load average before and after.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cycles=${1:-100}
seed=${2:-}
log=$(mktemp "${TMPDIR:-/tmp}/vprof-chaos.XXXXXX")
trap 'rm -f "$log"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
args=(-B -pl java -am verify -Dtest=ChaosDrillTest -Dsurefire.failIfNoSpecifiedTests=false "-Dvprof.chaos.cycles=$cycles")
[ -n "$seed" ] && args+=("-Dvprof.chaos.seed=$seed")
[ -n "${3:-}" ] && args+=("-Dvprof.chaos.ring=$3")
status=0
(cd "$root" && mvn "${args[@]}") >"$log" 2>&1 || status=$?
grep -E '^chaos: ' "$log" || { tail -60 "$log"; echo "chaos: the drill failed (exit $status); full log above" >&2; exit 1; }
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
