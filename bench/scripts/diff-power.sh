#!/usr/bin/env bash
# The diff's false-alarm rate and power (docs/diff.md, "How far to trust a verdict"): equivalent
# pairs (synthetic PyTorch traces of different seeds and step counts, at the default 5 % threshold
# and at 1 %; the real HTA trace fixtures/real/hta/trace_diff/control against copies jittered within
# its own step-to-step spread) and the power grid (a kernel holding 1, 5, 10, 30 % of GPU time made
# 2, 5, 10, 30 % slower). It is java/src/test/java/dev/vprof/diff/DiffPowerTest, which CI runs small.
#   bench/scripts/diff-power.sh [PAIRS] [REAL] [CELL] [SEED]
#     PAIRS  equivalent synthetic pairs per threshold (default 200)
#     REAL   real trace against jittered copies (default 40; also 40 with the heaviest kernel 1.3x)
#     CELL   pairs per power-grid cell (default 10)
# Prints the tables (lines "diffpower: ..."), the machine and the load average before and after.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
log=$(mktemp "${TMPDIR:-/tmp}/vprof-diffpower.XXXXXX")
trap 'rm -f "$log"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
args=(-B -o -pl java -am verify -Dtest=DiffPowerTest -Dsurefire.failIfNoSpecifiedTests=false
      "-Dvprof.diffpower.pairs=${1:-200}" "-Dvprof.diffpower.real=${2:-40}" "-Dvprof.diffpower.cell=${3:-10}"
      "-Dvprof.diffpower.seed=${4:-1}")
start=$(date +%s)
status=0
(cd "$root" && mvn "${args[@]}") >"$log" 2>&1 || status=$?
grep -E '^diffpower: ' "$log" || true
grep -E 'Tests run:.*DiffPowerTest|FAIL|expected' "$log" | head -20 || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - start )) s"
exit "$status"
