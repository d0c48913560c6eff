#!/usr/bin/env bash
# End to end: `./vprof run` (capture-range none, default ring) around the synthetic GPU
# process for DURATION, with the front end's heap capped at 256 MiB. STEP_US defaults to 0
# (unpaced: steps as fast as the CPU allows), because a paced simulator (--step-us > 0)
# also waits for each step's simulated GPU work, about 1.1 ms for 40 kernels, which caps a
# paced run near 36 k kernels/s per process whatever STEP_US says; 1 M kernels/s exists only
# unpaced. The achieved rate is the simulator's own (kernels / its launch loop's wall time). Asserts that
# nothing is lost (0 ring drops, 0 CUPTI drops, recorded kernels == launched kernels) and
# prints: the kernel rate the simulator achieved, the front end's CPU time per record
# (utime+stime of the java process from /proc/PID/stat, read after it exits and before it
# is reaped, so nothing is missed; its child, the simulator, is not counted), the capture
# file's bytes per kernel, the front end's peak heap (from -Xlog:gc), and then times
# `vprof report` on the same file, also with -Xmx256m.
# The GPU is the CUPTI test double: these are this machine's figures, not GPU figures.
#   bench/scripts/e2e-throughput.sh [DURATION|STEPS] [KERNELS_PER_STEP] [STEP_US]
# DURATION is 10s, 500ms, ...; a plain number is a step count instead (250000 steps of 40
# kernels = a 10 M-kernel capture, whatever rate the machine reaches).
# REPLAY=TRACE replays a recorded trace instead of the synthetic schedule
# (`vprof simulate --replay TRACE --loop N`, N the first argument, default 1000 passes): the
# same figures on a real trace's names, streams and shapes, still on the test double.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
native="$root/native/target/native"
length=${1:-10s}
if [[ $length =~ ^[0-9]+$ ]]; then how=(--steps "$length"); else how=(--duration "$length"); fi
kps=${2:-40}
step_us=${3:-0}
sim=("$native/vprof-simgpu" "${how[@]}" --kernels-per-step "$kps" --step-us "$step_us")
if [ -n "${REPLAY:-}" ]; then
  sim=("$root/vprof" simulate --replay "$REPLAY" --loop "${1:-1000}")
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-e2e-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/vprof" --version >/dev/null # builds on first use (also the native parts)
[ -x "$native/vprof-simgpu" ] || { echo "e2e-throughput: $native/vprof-simgpu is missing" >&2; exit 2; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
file="$work/e2e.vprof"

# Runs "$@" with the given stderr file and prints "utime_s stime_s wall_s exit" of that
# process alone (waitid WNOWAIT: the zombie's /proc stat holds its final CPU times).
cpu_of() {
  local errfile=$1; shift
  python3 - "$errfile" "$@" <<'PY'
import os, sys, time
err = open(sys.argv[1], "wb")
t0 = time.monotonic()
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, err.fileno(), 2)])
os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
wall = time.monotonic() - t0
with open(f"/proc/{pid}/stat") as f:
    fields = f.read().rsplit(")", 1)[1].split()
tick = os.sysconf("SC_CLK_TCK")
utime, stime = int(fields[11]) / tick, int(fields[12]) / tick  # fields 14 and 15 of stat(5)
_, status = os.waitpid(pid, 0)
print(f"{utime:.2f} {stime:.2f} {wall:.2f} {os.waitstatus_to_exitcode(status)}")
PY
}

read -r fe_user fe_sys fe_wall fe_exit < <(
  JAVA_TOOL_OPTIONS="-Xmx256m -Xlog:gc*:file=$work/gc-run.log" \
  VPROF_NO_BUILD=1 cpu_of "$work/run.err" "$root/vprof" run -o "$file" -- "${sim[@]}")
echo "load average after run: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$fe_exit" = 0 ] || { echo "vprof run exited $fe_exit:" >&2; cat "$work/run.err" >&2; exit 1; }

simline=$(grep '^vprof-simgpu: ' "$work/run.err" | tail -n1)
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$simline"; }
launched=$(field kernels); loop_ns=$(field loop_ns)
feline=$(grep '^vprof: wrote ' "$work/run.err" | tail -n1)
records=$(sed -n 's/.* kernels, \([0-9]*\) records;.*/\1/p' <<<"$feline")

# Peak heap: the largest heap-before-GC of any collection (SerialGC logs "A M->B M(C M)"),
# or what was in use at exit (young + old generation) if that is larger.
peak_heap() { # $1: a -Xlog:gc* file
  local before at_exit gcs
  before=$(grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$1" | sed 's/M->.*//' | sort -n | tail -n1)
  at_exit=$(grep -E 'gc,exit.*(DefNew|Tenured) +total' "$1" | grep -o 'used [0-9]*K' | awk '{s += $2} END {printf "%d", s / 1024}')
  gcs=$(grep -c 'Pause' "$1" || true)
  awk -v b="${before:-0}" -v e="${at_exit:-0}" -v n="$gcs" 'BEGIN {
    printf "%d MiB (largest of: heap before each of %d GCs, %d MiB in use at exit)", (b > e ? b : e), n, e }'
}

/usr/bin/env time -f '%e %M' -o "$work/report.time" env JAVA_TOOL_OPTIONS="-Xmx256m -Xlog:gc*:file=$work/gc-report.log" \
  VPROF_NO_BUILD=1 "$root/vprof" report --json "$file" >"$work/report.json" 2>"$work/report.err" || {
  echo "vprof report failed:" >&2; cat "$work/report.err" >&2; exit 1; }
read -r report_wall report_rss_kb <"$work/report.time"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$work/report.json" "$1"; }
kernels=$(json 'd["totals"]["kernels"]')
ring_drops=$(json 'd["totals"]["ring_drops"]')
cupti_drops=$(json 'd["totals"]["cupti_drops"]')
zero_ts=$(json 'd["totals"]["zero_timestamp_kernels"]')
bytes=$(stat -c %s "$file")

echo "front end: $feline"
echo "simulator: $simline"
awk -v launched="$launched" -v loop_ns="$loop_ns" -v records="$records" -v kernels="$kernels" \
    -v u="$fe_user" -v s="$fe_sys" -v wall="$fe_wall" -v bytes="$bytes" -v rw="$report_wall" \
    -v rss="$report_rss_kb" 'BEGIN {
  printf "kernels launched:        %d in %.2f s = %.3f M kernels/s (simulator loop)\n", launched, loop_ns / 1e9, launched / (loop_ns / 1e3)
  printf "front end CPU:           %.2f s user + %.2f s sys over %.1f s wall = %.0f ns per record (%d records)\n", u, s, wall, (u + s) * 1e9 / records, records
  printf "capture file:            %d bytes = %.1f bytes per kernel\n", bytes, bytes / kernels
  printf "vprof report --json:     %.2f s wall, max RSS %.0f MiB (-Xmx256m)\n", rw, rss / 1024 }'
echo "front end peak heap:     $(peak_heap "$work/gc-run.log") with -Xmx256m"
echo "report peak heap:        $(peak_heap "$work/gc-report.log")"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

fail=0
[ "$ring_drops" = 0 ] || { echo "FAIL: $ring_drops ring drops" >&2; fail=1; }
[ "$cupti_drops" = 0 ] && [ "$zero_ts" = 0 ] || { echo "FAIL: $cupti_drops CUPTI drops, $zero_ts kernels without timestamps" >&2; fail=1; }
[ "$kernels" = "$launched" ] || { echo "FAIL: the file holds $kernels kernels of $launched launched" >&2; fail=1; }
[ "$fail" = 0 ] && echo "OK: nothing lost ($kernels of $launched kernels recorded, 0 ring drops, 0 CUPTI drops)"
exit "$fail"
