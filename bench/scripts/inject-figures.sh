#!/usr/bin/env bash
# Late injection into live, busy targets: success rate, time to inject, targets harmed.
# Each injection loads the real agent (libvprof.so) with vprof-inject, as `vprof attach --inject`
# does (same 5 s safe-point wait), into a fresh target started for it:
#   a) bare:    vprof-simgpu --workers 2 --bare --steps S: forked workers with one thread each,
#               busy every instant, never in a system call (the hardest case)
#   b) helpers: vprof-simgpu --workers 2 --steps S: the same with libcuda's helper threads
#               (cuda-EvtHandlr in poll, a driver worker in a condition wait)
#   c) cpython: native/test/inject_pytarget.py, a CPython worker (busy main thread under the GIL,
#               ctypes calls into the simulated GPU, two Python threads, the helper threads),
#               with two busy loops (yes >/dev/null) running beside it
# a) and b) inject both workers of a run (N/2 runs, N injections); c) one process per run.
# A target is harmed when it crashes (non-zero exit, a signal), hangs (no exit within 120 s of
# the injection), or its result changes: the simulator's summary line must say exactly S steps
# and 40 kernels and 2 copies per step for each worker; the CPython target's last line must equal
# an uninjected reference run's (steps, kernels, integer and float checksums).
# Time to inject: wall time of vprof-inject (reading the target, finding a safe thread, the
# loader thread's dlopen of the agent), p50 and p99. Not a GPU figure (CUPTI test double).
#   bench/scripts/inject-figures.sh [N] [a|b|c ...]      (default 100, all three)
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
native="$root/native/target/native"
n=${1:-100}
shift || true
scenarios=${*:-a b c}
make -C "$root/native" -s all "$native/test/inject/inject_pytarget.py" >/dev/null || exit 1
inject="$native/vprof-inject" agent="$native/libvprof.so" sim="$native/vprof-simgpu"
py=$(command -v python3) || { echo "python3 is needed for c)" >&2; exit 1; }
work=$(mktemp -d /tmp/vprof-inject-figures.XXXXXX)
busy=()
cleanup() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
SIM_STEPS=300000 PY_STEPS=60000

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# inject_one PID: injects the agent, appends "ms rc" to $work/times, the reason to $work/refusals.
inject_one() {
  local t0 t1 rc=0
  t0=$(date +%s%N)
  "$inject" --pid "$1" --lib "$agent" --timeout-ms 5000 >"$work/out" 2>"$work/err" || rc=$?
  t1=$(date +%s%N)
  echo "$(((t1 - t0) / 1000)) $rc" >>"$work/times"
  [ "$rc" -eq 0 ] || echo "exit $rc: $(tr '\n' ' ' <"$work/err")" >>"$work/refusals"
}

# wait_workers PID COUNT: up to 20 s for COUNT children that mapped the simulated CUDA context.
wait_workers() {
  local kids
  for _ in $(seq 2000); do
    kids=$(pgrep -P "$1" | tr '\n' ' ')
    local ready=0
    for k in $kids; do grep -q simcuda-context "/proc/$k/maps" 2>/dev/null && ready=$((ready + 1)); done
    [ "$ready" -ge "$2" ] && { echo "$kids"; return 0; }
    sleep 0.01
  done
  return 1
}

# finish PID DEADLINE_S: waits for PID (a child of this shell) up to DEADLINE_S; sets $ended to
# its exit status, or to "hung" after killing it.
finish() {
  local pid=$1 t=0
  while [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = R ] ||
        [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = S ]; do
    sleep 0.1; t=$((t + 1))
    if [ $t -ge $(($2 * 10)) ]; then kill -9 "$pid"; wait "$pid" 2>/dev/null; ended=hung; return; fi
  done
  ended=0; wait "$pid" || ended=$?
}

# harm WHAT: one line in the harm log per harmed target.
harm() { echo "$*" | tr '\n' ' ' >>"$work/harm"; echo >>"$work/harm"; }

run_sim() { # run_sim EXTRA_ARGS...: one simulator run, both workers injected
  "$sim" --workers 2 --steps $SIM_STEPS "$@" 2>"$work/sim.err" &
  local pid=$! kids
  if ! kids=$(wait_workers $pid 2); then harm "did not start"; kill -9 $pid; wait $pid 2>/dev/null; return; fi
  for k in $kids; do inject_one "$k"; done
  finish $pid 120
  if [ "$ended" = hung ]; then harm "hung"; return; fi
  [ "$ended" -eq 0 ] || { harm "exit $ended: $(cat "$work/sim.err")"; return; }
  local want="kernels=$((SIM_STEPS * 40)) kernels_in_profiler_ranges=0 kernels_in_nvtx_ranges=0 memcpys=$((SIM_STEPS * 2)) steps=$SIM_STEPS"
  local good; good=$(grep 'role=worker' "$work/sim.err" | grep -c -- "$want")
  [ "$good" -eq 2 ] || harm "changed: $(grep role=worker "$work/sim.err")"
  for k in $kids; do rm -f "/dev/shm/vprof.$k"; done
}

run_py() { # one CPython target, injected once
  local d="$work/py" pid
  rm -rf "$d"; mkdir -p "$d"
  "$py" "$native/test/inject/inject_pytarget.py" "$native/libvprof-simgpu.so" "$d" $PY_STEPS >"$d/stdout" 2>&1 &
  pid=$!
  for _ in $(seq 2000); do [ -e "$d/ready" ] && break; sleep 0.01; done
  inject_one $pid
  finish $pid 120
  if [ "$ended" = hung ]; then harm "hung"; return; fi
  [ "$ended" -eq 0 ] || { harm "exit $ended: $(tail -3 "$d/stdout")"; return; }
  [ "$(tail -1 "$d/stdout")" = "$py_reference" ] || harm "changed: $(tail -1 "$d/stdout")"
  rm -f "/dev/shm/vprof.$pid"
}

pct() { # pct P: the P-th percentile (nearest rank) of the first column of $work/times, in ms
  awk '{print $1}' "$work/times" | sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int((p*NR+99)/100); if(i<1)i=1; printf "%.1f", a[i]/1000}'
}

report() { # report NAME LOAD_BEFORE
  local total ok harmed
  total=$(wc -l <"$work/times"); ok=$(awk '$2==0' "$work/times" | wc -l)
  harmed=$(cat "$work/harm" 2>/dev/null | wc -l)
  printf '| %s | %d | **%d / %d (%.1f %%)** | %s ms | %s ms | **%d** | %s → %s |\n' "$1" "$total" "$ok" "$total" \
    "$(awk -v a="$ok" -v b="$total" 'BEGIN{print b ? 100*a/b : 0}')" "$(pct 50)" "$(pct 99)" "$harmed" "$2" \
    "$(cut -d' ' -f1 /proc/loadavg)" >>"$work/table"
  [ -s "$work/refusals" ] && { echo "  $1: refusals:"; sort "$work/refusals" | uniq -c | head -5 | sed 's/^/    /'; }
  [ -s "$work/harm" ] && { echo "  $1: HARMED:"; sed 's/^/    /' "$work/harm"; }
}

echo "| target | injections | succeeded | p50 | p99 | targets harmed | load avg (before → after) |" >"$work/table"
echo "|---|---|---|---|---|---|---|" >>"$work/table"
for s in $scenarios; do
  : >"$work/times"; : >"$work/refusals"; : >"$work/harm"
  load=$(cut -d' ' -f1 /proc/loadavg)
  case $s in
    a) echo "a) bare busy single-threaded forked workers ($n injections)"
       for ((i = 0; i < n / 2; i++)); do run_sim --bare; done
       report "a) bare: forked, single-threaded, busy (\`--bare\`)" "$load" ;;
    b) echo "b) forked workers with libcuda's helper threads ($n injections)"
       for ((i = 0; i < n / 2; i++)); do run_sim; done
       report "b) forked workers + driver helper threads" "$load" ;;
    c) echo "c) CPython worker beside two busy loops ($n injections)"
       rm -rf "$work/ref"; mkdir -p "$work/ref"
       py_reference=$("$py" "$native/test/inject/inject_pytarget.py" "$native/libvprof-simgpu.so" "$work/ref" $PY_STEPS | tail -1)
       yes >/dev/null & busy+=($!)
       yes >/dev/null & busy+=($!)
       for ((i = 0; i < n; i++)); do run_py; done
       for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done; busy=()
       report "c) CPython worker (GIL-busy main thread, 2 Python threads, helpers) + 2 busy loops" "$load" ;;
  esac
done
echo
cat "$work/table"
