#!/usr/bin/env bash
# `vprof diff BASE NEW` of two 10 M-kernel captures with the front end's heap capped (default
# -Xmx256m), as a user runs it (the whole command: JVM start, both sides' step pass and counting
# pass, the bootstrap, the text): wall time, CPU user + sys, the peak heap (the largest
# heap-before-GC in -Xlog:gc, or what was in use at exit if larger) and the largest heap left
# after a GC (what was live), and the verdict line. Captures that do not exist yet are made first
# and kept: `vprof run` around the CUPTI test double's vprof-simgpu, STEPS steps (default 250000)
# of 40 kernels (10 M kernels, about 330 MiB each); the new one with `--slow gemm:1.3` and another
# seed, so the diff has a change to find. These are figures of this machine, not GPU figures.
#   bench/scripts/diff-heap.sh BASE NEW
#   HEAP=256m STEPS=250000 bench/scripts/diff-heap.sh /tmp/base.vprof /tmp/new.vprof
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
base=${1:?usage: diff-heap.sh BASE NEW}
new=${2:?usage: diff-heap.sh BASE NEW}
heap=${HEAP:-256m}
steps=${STEPS:-250000}
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-diff-heap.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/vprof" --version >/dev/null # builds on first use
make() { # FILE SIM-ARGS...
  local file=$1; shift
  [ -e "$file" ] && return 0
  echo "making $file: vprof run around vprof-simgpu --steps $steps $* (the CUPTI test double)"
  JAVA_TOOL_OPTIONS=-Xmx256m VPROF_NO_BUILD=1 "$root/vprof" run -o "$file" -- \
      "$root/native/target/native/vprof-simgpu" --steps "$steps" --kernels-per-step 40 --step-us 0 "$@" 2>&1 | tail -n1
}
make "$base" --seed 1
make "$new" --seed 2 --slow gemm:1.3

load=$(cut -d' ' -f1 /proc/loadavg)
/usr/bin/env time -f '%e %U %S' -o "$work/time" env JAVA_TOOL_OPTIONS="-Xmx$heap -Xlog:gc*:file=$work/gc.log" \
    VPROF_NO_BUILD=1 "$root/vprof" diff "$base" "$new" >"$work/out" 2>"$work/err" || {
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "diff failed (exit $rc): $(grep -m1 -o 'OutOfMemoryError[^"]*' "$work/err" || tail -n1 "$work/err")" >&2
    exit 1
  fi
}
read -r wall user sys <"$work/time"
before=$(grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$work/gc.log" | sed 's/M->.*//' | sort -n | tail -n1)
after=$(grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$work/gc.log" | sed 's/.*->//; s/M(.*//' | sort -n | tail -n1)
at_exit=$(grep -E 'gc,exit.*(DefNew|Tenured).* +total' "$work/gc.log" | grep -o 'used [0-9]*K' | awk '{s += $2} END {printf "%d", s / 1024}')
peak=$(( ${before:-0} > ${at_exit:-0} ? ${before:-0} : ${at_exit:-0} ))
kb=$(grep -o '^  base: .*' "$work/out" | grep -o '[0-9]* kernels' | head -n1)
kn=$(grep -o '^  new: .*' "$work/out" | grep -o '[0-9]* kernels' | head -n1)
echo "machine: $(nproc) cores; load before: $load"
echo "| sides | heap | wall | CPU user + sys | peak heap | live after GC | verdict |"
echo "|---|---|---|---|---|---|---|"
printf '| %s + %s | -Xmx%s | %.2f s | %.2f s + %.2f s | %d MiB | %d MiB | %s |\n' "$kb" "$kn" "$heap" "$wall" "$user" "$sys" \
    "$peak" "${after:-0}" "$(head -n1 "$work/out" | cut -c1-60)"
