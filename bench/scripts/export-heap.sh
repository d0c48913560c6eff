#!/usr/bin/env bash
# `vprof export` of one capture to each format with the front end's heap capped (default
# -Xmx256m), as a user runs it (the whole command: JVM start, the clock and layout passes, the
# walk, the file): wall time; CPU time, user (the exporter's own work) and sys (mostly the kernel
# writing the file: the same bytes for both builds, and what varies most on a loaded machine);
# kernels per second of wall, and GPU ops (kernels and copies) per second of wall and of user
# CPU; the peak heap (the largest heap-before-GC in -Xlog:gc, or what was in use at exit if
# larger, garbage included) and the largest heap left after a GC (what was live); the trace's
# size. With OTHER_VPROF, the same for another build, first with the same cap and, if that
# fails, again with OTHER_HEAP (default 1g) to time it at all.
# A CAPTURE that does not exist yet is made first and kept: `vprof run` around the CUPTI test
# double's vprof-simgpu, STEPS steps (default 250000) of 40 kernels and 2 copies (250000 steps:
# 10 M kernels, about 330 MiB), recording vprof run's default --kinds or KINDS (with runtime:
# a launch call per kernel and its flow in the trace). These are export figures on this machine,
# not GPU figures.
#   bench/scripts/export-heap.sh CAPTURE [OTHER_VPROF]
#   HEAP=256m OTHER_HEAP=1g FORMATS="pftrace json kineto sqlite" STEPS=250000 KINDS=kernel,memcpy,nvtx,runtime \
#     bench/scripts/export-heap.sh ...
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/scripts/lib.sh"
capture=${1:?usage: export-heap.sh CAPTURE [OTHER_VPROF]}
other=${2:-}
heap=${HEAP:-256m}
other_heap=${OTHER_HEAP:-1g}
formats=${FORMATS:-pftrace json kineto}
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-export-heap.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/vprof" --version >/dev/null # builds on first use
[ -z "$other" ] || "$other" --version >/dev/null
if [ ! -e "$capture" ]; then
  echo "making $capture: vprof run ${KINDS:+--kinds $KINDS }around vprof-simgpu --steps ${STEPS:-250000} (the CUPTI test double)"
  JAVA_TOOL_OPTIONS=-Xmx256m VPROF_NO_BUILD=1 "$root/vprof" run ${KINDS:+--kinds "$KINDS"} -o "$capture" -- \
      "$root/native/target/native/vprof-simgpu" --steps "${STEPS:-250000}" --kernels-per-step 40 --step-us 0 2>&1 | tail -n1
fi
kernels=$(VPROF_NO_BUILD=1 "$root/vprof" report --json "$capture" 2>/dev/null |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["totals"]["kernels"])' || true)
[ -n "$kernels" ] || { echo "export-heap: cannot read the kernel count of $capture with vprof report" >&2; exit 1; }

# run LABEL VPROF HEAP FORMAT: one export; prints a table row (or the failure)
run() {
  local label=$1 vprof=$2 xmx=$3 fmt=$4 out args=()
  case $fmt in
    pftrace) out="$work/t.pftrace" ;;
    json) out="$work/t.json" ;;
    kineto) out="$work/k/t.json"; mkdir -p "$work/k"; args=(--format kineto) ;;
    sqlite) out="$work/t.sqlite" ;;
  esac
  rm -rf "$work/k"/* "$work"/t.* 2>/dev/null || true
  sync
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  if ! /usr/bin/env time -f '%e %U %S %M' -o "$work/time" env JAVA_TOOL_OPTIONS="-Xmx$xmx -Xlog:gc*:file=$work/gc.log" \
      VPROF_NO_BUILD=1 "$vprof" export "$capture" -o "$out" "${args[@]}" >"$work/out" 2>"$work/err"; then
    local why; why=$(grep -m1 -o 'OutOfMemoryError[^"]*' "$work/err" || tail -n1 "$work/err")
    printf '| %s | %s | -Xmx%s | fails: %s | | | | | | | %s |\n' "$label" "$fmt" "$xmx" "$why" "$load"
    return 1
  fi
  local wall user sys rss ops bytes
  read -r wall user sys rss <"$work/time"
  ops=$(grep -o '[0-9]* GPU ops' "$work/out" | head -n1 | cut -d' ' -f1)
  [ -n "$ops" ] || ops=$(grep -o '[0-9]* GPU ops' "$work/out" | awk '{s += $1} END {print s}')
  bytes=$(du -cb "$work"/t.* "$work"/k/* 2>/dev/null | tail -n1 | cut -f1)
  printf '| %s | %s | -Xmx%s | %.2f s | %.2f s + %.2f s | %.2f M/s | %.2f M/s | %.2f M/s | %s | %.1f MiB | %s |\n' "$label" "$fmt" \
    "$xmx" "$wall" "$user" "$sys" "$(echo "$kernels / $wall / 1000000" | bc -l)" "$(echo "$ops / $wall / 1000000" | bc -l)" \
    "$(echo "$ops / $user / 1000000" | bc -l)" \
    "$(peak_heap "$work/gc.log")" "$(echo "$bytes / 1048576" | bc -l)" "$load"
}

echo "capture: $capture ($(du -h "$capture" | cut -f1), $kernels kernels); machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| build | format | heap | wall | CPU user + sys | kernels/s of wall | GPU ops/s of wall | GPU ops/s of user CPU | peak heap | trace | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for fmt in $formats; do
  run "this tree" "$root/vprof" "$heap" "$fmt" || true
  if [ -n "$other" ]; then
    run "other" "$other" "$heap" "$fmt" || run "other" "$other" "$other_heap" "$fmt" || true
  fi
done
