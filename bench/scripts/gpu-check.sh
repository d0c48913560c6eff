#!/usr/bin/env bash
# The GPU check of a vprof GPU bundle (made by bench/scripts/gpu-bundle.sh): on a machine with an
# NVIDIA GPU, its driver, nvcc and (for the comparison) PyTorch, and with no JDK and no network,
# it unpacks the bundled release archive, records the machine (nvidia-smi, nvcc, torch, doctor)
# and runs `vprof selftest --gpu` (every case: graphs instantiated while dormant, a long kernel at
# an unsynchronized stop, 32 threads, 10^6 graph kernels, launch cost, NVTX before CUDA, late
# injection, torch.profiler in and out of vprof's process, vprof watch recording all the time: its
# launch cost, a dump, its SIGKILL), all within a hard limit of 8 minutes.
# The table (OUTDIR/selftest/selftest.txt), every row and fact (results.json) and each case's raw
# outputs (cases/NAME/) go into OUTDIR. A failing case does not stop the others; rows are written
# as they are decided, so a run cut short still leaves them. Without a GPU it says so and exits 0.
#
#   ./gpu-check.sh OUTDIR          exit 0: all matched (or no GPU), 5: a mismatch (vprof's NOT_EXPECTED), 124: out of time
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# 8 minutes in all: the self-test is asked to stop (TERM) at 7:45 and killed 10 s later.
limit_s=${VPROF_GPU_CHECK_LIMIT_S:-465}
[ $# -eq 1 ] && [ "$1" != -h ] && [ "$1" != --help ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
mkdir -p "$1" || { echo "gpu-check.sh: cannot create $1" >&2; exit 2; }
out=$(cd "$1" && pwd)
start=$(date +%s)
log() { echo "gpu-check: $*" | tee -a "$out/gpu-check.txt"; }
: > "$out/gpu-check.txt"

archive=$(ls "$here"/vprof-*-linux-"$(uname -m)".tar.gz 2>/dev/null | head -n1)
[ -n "$archive" ] || { log "no vprof archive for $(uname -m) in $here; build the bundle for this architecture"; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-gpu-check-XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$archive" || { log "cannot unpack $archive into $work"; exit 2; }
vprof=$(echo "$work"/vprof-*/vprof)
log "archive $(basename "$archive"), unpacked in $work"

{
  echo "== date";       date -u
  echo "== uname";      uname -a
  echo "== nvidia-smi -L"; nvidia-smi -L 2>&1 || echo "(no nvidia-smi)"
  echo "== nvidia-smi"; nvidia-smi 2>&1 || echo "(no nvidia-smi)"
  echo "== nvcc";       nvcc --version 2>&1 || echo "(no nvcc on PATH)"
  echo "== python";     python3 -c 'import sys, torch; print(sys.version); print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())' 2>&1 || echo "(no python3 with torch)"
  echo "== vprof doctor"; "$vprof" doctor 2>&1
} > "$out/environment.txt" 2>&1
log "machine: $(grep -m1 -E '^GPU 0|no nvidia-smi' "$out/environment.txt" 2>/dev/null || echo '?')"

# The self-test in its own session, so the limit ends it and everything it started. The limit
# counts from this script's start: unpacking and the machine's description are inside it.
left=$(( limit_s - ($(date +%s) - start) ))
[ "$left" -ge 1 ] || left=1
# The self-test stops starting cases 20 s before the hard limit and writes its table itself.
inner=$(( left > 40 ? left - 20 : left ))
log "vprof selftest --gpu --out $out/selftest --time-limit ${inner}s (${left} s left of ${limit_s} s)"
setsid "$vprof" selftest --gpu --out "$out/selftest" --time-limit "${inner}s" > "$out/selftest.log" 2>&1 &
pid=$!
(
  exec >/dev/null 2>&1   # holds no pipe of the caller's open
  sleep "$left" & sleeper=$!
  trap 'kill "$sleeper"; exit 0' TERM
  wait "$sleeper"
  kill -TERM -- -"$pid"; sleep 10; kill -KILL -- -"$pid"
) &
watchdog=$!
wait "$pid"; rc=$?
kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null
elapsed=$(( $(date +%s) - start ))
cat "$out/selftest.log"
if [ "$rc" -eq 143 ] || [ "$rc" -eq 137 ]; then
  log "TIMED OUT after ${elapsed} s (limit ${limit_s} s); partial outputs are in $out/selftest"
  exit 124
fi
if grep -q "no NVIDIA GPU here" "$out/selftest.log"; then
  log "no NVIDIA GPU on this machine: nothing was tested on a GPU (exit 0), ${elapsed} s"
  exit 0
fi
log "selftest exit $rc after ${elapsed} s; table: $out/selftest/selftest.txt"
exit "$rc"
