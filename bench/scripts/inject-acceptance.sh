#!/usr/bin/env bash
# The late-injection acceptance: the documented inject walkthrough, exactly as written,
#     ./vprof simulate --workers 2 --duration 60s &
#     ./vprof attach --pid $! --inject --duration 3s -o x.vprof
# RUNS times in a row on the machine as it is, then RUNS times beside two busy loops
# (`yes >/dev/null &`, twice). A run passes when attach exits 0 having captured both workers,
# and the simulator, stopped with SIGTERM afterwards, exits 0 with both workers' summary lines
# (nothing crashed or hung). Runs in a scratch directory where ./vprof is a link to this
# checkout's launcher, so the command line is the literal one. Exit 1 on any failure.
#   bench/scripts/inject-acceptance.sh [RUNS]        (default 10)
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
runs=${1:-10}
work=$(mktemp -d /tmp/vprof-inject-acceptance.XXXXXX)
busy=()
cleanup() {
  for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
ln -s "$root/vprof" vprof
./vprof --version >/dev/null 2>&1 || { echo "cannot run $root/vprof (build failed?)" >&2; exit 1; }

# one N LABEL: runs the two commands once; prints one line; returns 0 when the run passed.
one() {
  local n=$1 label=$2 sim rc code t0 t1 why=""
  rm -f x.vprof attach.err sim.err
  t0=$(date +%s%N)
  ./vprof simulate --workers 2 --duration 60s 2>sim.err &
  ./vprof attach --pid $! --inject --duration 3s -o x.vprof 2>attach.err
  rc=$?
  sim=$!   # still the simulator: `$!` is only changed by another background command
  t1=$(date +%s%N)
  kill -TERM "$sim" 2>/dev/null
  code=0; wait "$sim" || code=$?
  [ "$rc" -eq 0 ] || why="attach exit $rc: $(grep -m1 'vprof: cannot\|vprof: error\|vprof: no ' attach.err)"
  [ -z "$why" ] && ! grep -q "wrote x.vprof: 2 processes" attach.err && why="not both workers: $(grep -m1 wrote attach.err)"
  [ -z "$why" ] && [ "$code" -ne 0 ] && why="simulator exit $code"
  [ -z "$why" ] && [ "$(grep -c 'role=worker' sim.err)" -ne 2 ] && why="a worker did not finish: $(cat sim.err)"
  if [ -z "$why" ]; then
    printf '  %-22s run %2d: ok   %5d ms  %s\n' "$label" "$n" $(((t1 - t0) / 1000000)) \
      "$(grep -o 'wrote x.vprof: .*' attach.err)"
    return 0
  fi
  printf '  %-22s run %2d: FAIL %s\n' "$label" "$n" "$why"
  sed 's/^/      | /' attach.err
  return 1
}

failed=0
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= runs; i++)); do one "$i" "as is" || failed=$((failed + 1)); done
yes >/dev/null & busy+=($!)
yes >/dev/null & busy+=($!)
sleep 1
for ((i = 1; i <= runs; i++)); do one "$i" "beside 2 busy loops" || failed=$((failed + 1)); done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$((2 * runs - failed)) of $((2 * runs)) runs passed"
[ "$failed" -eq 0 ]
