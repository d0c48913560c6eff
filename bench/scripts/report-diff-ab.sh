#!/usr/bin/env bash
# `vprof report --json` and `vprof diff` of the same captures by this tree and by another build,
# side by side in one run, the two alternating so that the machine's load falls on both alike:
# ROUNDS rounds (default 5), each runs this tree's report, the other's, this tree's diff, the
# other's (the order flips every round), each with -Xmx256m. Prints each run's wall and CPU
# (user + sys) seconds and peak heap (the largest heap-before-GC in -Xlog:gc, or in use at exit),
# then the median CPU of each command per tree and their ratio (this tree / the other). CPU time is
# the figure to compare on a shared machine; wall time follows the load. The captures are the
# diff benchmark's (diff-heap.sh makes them); these are the test double's figures, not a GPU's.
#   bench/scripts/report-diff-ab.sh OTHER_TREE BASE.vprof NEW.vprof [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
other=$(cd "${1:?usage: report-diff-ab.sh OTHER_TREE BASE.vprof NEW.vprof [ROUNDS]}" && pwd)
base=${2:?usage: report-diff-ab.sh OTHER_TREE BASE.vprof NEW.vprof [ROUNDS]}
new=${3:?usage: report-diff-ab.sh OTHER_TREE BASE.vprof NEW.vprof [ROUNDS]}
rounds=${4:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/vprof" --version >/dev/null
"$other/vprof" --version >/dev/null

peak() { # a -Xlog:gc* file -> MiB
  local before at_exit
  before=$(grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$1" | sed 's/M->.*//' | sort -n | tail -n1)
  at_exit=$(grep -E 'gc,exit.*(DefNew|Tenured).* +total' "$1" | grep -o 'used [0-9]*K' | awk '{s += $2} END {printf "%d", s / 1024}')
  echo $(( ${before:-0} > ${at_exit:-0} ? ${before:-0} : ${at_exit:-0} ))
}

one() { # TREE-NAME TREE COMMAND...
  local name=$1 tree=$2; shift 2
  local log="$work/gc.log"
  rm -f "$log"
  /usr/bin/env time -f '%e %U %S' -o "$work/time" env JAVA_TOOL_OPTIONS="-Xmx256m -Xlog:gc*:file=$log" \
      VPROF_NO_BUILD=1 "$tree/vprof" "$@" >"$work/out" 2>"$work/err" || true
  read -r wall user sys <"$work/time"
  local cpu; cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
  printf '%-6s %-6s wall %6.2f s  cpu %6.2f s  peak heap %4d MiB  load %s\n' "$name" "$1" "$wall" "$cpu" \
      "$(peak "$log")" "$(cut -d' ' -f1 /proc/loadavg)"
  echo "$name $1 $cpu" >>"$work/cpu"
}

echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < rounds; i++)); do
  if ((i % 2 == 0)); then first=("this" "$root") second=("other" "$other"); else first=("other" "$other") second=("this" "$root"); fi
  one "${first[@]}" report --json "$base"
  one "${second[@]}" report --json "$base"
  one "${first[@]}" diff "$base" "$new"
  one "${second[@]}" diff "$base" "$new"
done
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
for cmd in report diff; do
  t=$(awk -v c="$cmd" '$1 == "this" && $2 == c {print $3}' "$work/cpu" | median)
  o=$(awk -v c="$cmd" '$1 == "other" && $2 == c {print $3}' "$work/cpu" | median)
  printf '%s: median CPU this tree %.2f s, other %.2f s, ratio %.3f\n' "$cmd" "$t" "$o" "$(awk -v t="$t" -v o="$o" 'BEGIN {print t / o}')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
