#!/usr/bin/env bash
# Coverage-guided fuzzing (Jazzer) of every parser of outside input, SECONDS per target
# (docs/reliability.md). The targets are the *FuzzTest classes that `mvn verify` runs for a few
# seconds each; here they run for as long as asked, one after the other, each from its committed
# inputs plus the corpus earlier runs grew in java/.cifuzz-corpus/. A finding fails the run and
# is written under java/src/test/resources/dev/vprof/<package>/<Target>Inputs/<method>/: fix it
# and commit the file, so that every later run replays it.
#   bench/scripts/fuzz.sh [SECONDS]      (default 600 per target)
# Prints, per target, the executions, the time and what it found, then the machine and load.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-600}
log=$(mktemp "${TMPDIR:-/tmp}/vprof-fuzz.XXXXXX")
trap 'rm -f "$log"' EXIT
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
(cd "$root" && mvn -B -pl java -am verify -Dunit.skip=true "-Dfuzz.seconds=$seconds") >"$log" 2>&1 || status=$?
# Surefire prints "Running <class>" before each target; libFuzzer "Done N runs" and its stats at the end.
awk '
  /Running dev\.vprof\..*FuzzTest/ { target = $NF; sub(/.*\./, "", target) }
  /^Done [0-9]+ runs in [0-9]+ second/ { runs = $2; secs = $5; done = 1 }
  /stat::new_units_added:/ && done { printf "%-22s %12d executions in %5d s, %6d new corpus inputs\n", target, runs, secs, $2; done = 0 }
  /FuzzTestFindingException|Test unit written to/ { print "  FINDING in " target ": " $0 }
' "$log"
grep -E 'Tests run:.*FuzzTest|BUILD (SUCCESS|FAILURE)' "$log" | sed 's/^\[[A-Z]*\] //' | tail -8
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
