#!/usr/bin/env bash
# Reading a large Nsight Systems SQLite export with the front end's heap capped (default
# -Xmx256m), as a user runs it: `vprof report --json EXPORT` (the export streamed, table by table
# in start order, into a temporary capture, then the report's pass over it) and `vprof import
# EXPORT -o OUT.vprof`. For each: wall time, CPU time (user + sys), the peak heap (the largest
# heap-before-GC in -Xlog:gc, or what was in use at exit if larger, garbage included) and the
# largest heap left after a GC (what was live); the export's size and rows; that the report's
# kernel count equals SQL's count on the file (Debian's sqlite3); that no temporary capture is left
# in the temporary folder.
# An EXPORT that does not exist yet is made first and kept: `vprof run` around the CUPTI test
# double's vprof-simgpu (STEPS steps of 40 kernels and 2 copies, each step an NVTX range, with a
# runtime launch call per kernel: --kinds KINDS), `vprof export` of that capture in nsys's 3.25.0
# schema, and then Debian's sqlite3 repeats the rows of the five tables COPIES times in all, each
# copy later in time by the span of the first and with correlation ids past the first's, so that
# the file is large without an export of vprof's over 1 GiB (the SQLite sink writes data into
# SQLite's lock-byte page at 1 GiB, which SQLite refuses: bench/README.md). These are front-end
# figures on this machine, not GPU figures.
# VPROF names another vprof to measure (default: this tree's, built on first use).
#   bench/scripts/nsys-import.sh EXPORT.sqlite
#   HEAP=256m STEPS=135000 COPIES=3 KINDS=kernel,memcpy,nvtx,runtime VPROF=./vprof bench/scripts/nsys-import.sh /tmp/big.sqlite
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/scripts/lib.sh"
export_file=${1:?usage: nsys-import.sh EXPORT.sqlite}
heap=${HEAP:-256m}
steps=${STEPS:-135000}
copies=${COPIES:-3}
kinds=${KINDS:-kernel,memcpy,nvtx,runtime}
command -v sqlite3 >/dev/null || { echo "nsys-import: needs Debian's sqlite3 (apt-get install sqlite3)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-nsys-import.XXXXXX")
trap 'rm -rf "$work"' EXIT
vprof=${VPROF:-$root/vprof}
"$vprof" --version >/dev/null # builds on first use

tables="CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_MEMSET CUPTI_ACTIVITY_KIND_RUNTIME NVTX_EVENTS"

# repeat TABLE SPAN CORR: the rows of TABLE again, COPIES - 1 times, copy i later by i * SPAN ns and
# its correlation ids past the first's by i * CORR
repeat() {
  local t=$1 span=$2 corr=$3 cols select n i q
  cols=$(sqlite3 "$export_file" "SELECT group_concat(name, ',') FROM pragma_table_info('$t')")
  select=$(echo "$cols" | tr ',' '\n' | sed 's/^start$/start + :shift/; s/^end$/"end" + :shift/;
    s/^correlationId$/correlationId + :corr/' | paste -sd, -)
  n=$(sqlite3 "$export_file" "SELECT coalesce(max(rowid), 0) FROM $t")
  for ((i = 1; i < copies; i++)); do
    q="INSERT INTO $t ($cols) SELECT ${select//:shift/$((i * span))} FROM $t WHERE rowid <= $n ORDER BY rowid"
    sqlite3 "$export_file" "${q//:corr/$((i * corr))}"
  done
}

if [ ! -e "$export_file" ]; then
  capture="${export_file%.sqlite}.vprof"
  if [ ! -e "$capture" ]; then
    echo "making $capture: vprof run --kinds $kinds around vprof-simgpu --steps $steps --nvtx (the CUPTI test double)"
    JAVA_TOOL_OPTIONS=-Xmx256m VPROF_NO_BUILD=1 "$vprof" run --kinds "$kinds" -o "$capture" -- \
        "$root/native/target/native/vprof-simgpu" --steps "$steps" --kernels-per-step 40 --step-us 0 --nvtx 2>&1 | tail -n1
  fi
  echo "making $export_file: vprof export $capture (the SQLite sink, nsys's 3.25.0 schema), its rows $copies times (sqlite3)"
  VPROF_NO_BUILD=1 "$vprof" export --format sqlite "$capture" -o "$export_file.part" 2>&1 | tail -n1
  mv "$export_file.part" "$export_file"
  span=$(sqlite3 "$export_file" "SELECT max(e) - min(s) + 1000000 FROM (SELECT min(start) AS s, max(\"end\") AS e
    FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT min(start), max(\"end\") FROM CUPTI_ACTIVITY_KIND_RUNTIME
    UNION ALL SELECT min(start), max(\"end\") FROM NVTX_EVENTS)")
  corr=$(sqlite3 "$export_file" "SELECT coalesce(max(correlationId), 0) + 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME")
  for t in $tables; do
    repeat "$t" "$span" "$corr"
  done
  [ "$(sqlite3 "$export_file" 'PRAGMA quick_check')" = ok ] || { echo "nsys-import: SQLite's quick_check fails on $export_file" >&2; exit 1; }
fi

sql() { sqlite3 -readonly "$export_file" "$1"; }
kernels=$(sql 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')
rows=$(sql 'SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY)
  + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET) + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME)
  + (SELECT count(*) FROM NVTX_EVENTS)')
size=$(stat -c %s "$export_file")

# run LABEL ARGS...: one command over the export; prints a table row (or the failure)
run() {
  local label=$1; shift
  local tmp="$work/tmp"; rm -rf "$tmp"; mkdir -p "$tmp"
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  sync
  if ! /usr/bin/env time -f '%e %U %S' -o "$work/time" env TMPDIR="$tmp" \
      JAVA_TOOL_OPTIONS="-Xmx$heap -Djava.io.tmpdir=$tmp -Xlog:gc*:file=$work/gc.log" \
      VPROF_NO_BUILD=1 "$vprof" "$@" >"$work/out" 2>"$work/err"; then
    local why; why=$(grep -m1 -o 'OutOfMemoryError[^"]*' "$work/err" || tail -n1 "$work/err")
    printf '| %s | -Xmx%s | fails: %s | | | | %s |\n' "$label" "$heap" "$why" "$load"
    return 1
  fi
  local wall user sys left
  read -r wall user sys <"$work/time"
  left=$(find "$tmp" -maxdepth 1 -name 'vprof-*' | wc -l)
  printf '| %s | -Xmx%s | %.1f s | %.1f s + %.1f s | %.2f M rows/s | %s | %s left | %s |\n' "$label" "$heap" \
    "$wall" "$user" "$sys" "$(echo "$rows / $wall / 1000000" | bc -l)" "$(peak_heap "$work/gc.log")" "$left" "$load"
}

echo "export: $export_file ($(echo "$size / 1048576" | bc) MiB, $kernels kernels, $rows rows in the five tables vprof reads);" \
  "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| command | heap | wall | CPU user + sys | rows/s of wall | peak heap | temporary captures | load |"
echo "|---|---|---|---|---|---|---|---|"
if run "vprof report --json" report --json "$export_file"; then
  reported=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["totals"]["kernels"])' "$work/out")
  cp "$work/out" "$work/report.json"
fi
run "vprof import" import "$export_file" -o "$work/imported.vprof" || true
imported=$(stat -c %s "$work/imported.vprof" 2>/dev/null || echo 0)
echo
echo "kernels: vprof report ${reported:-?}, SQL $kernels: $([ "${reported:-}" = "$kernels" ] && echo equal || echo DIFFERENT)"
echo "imported capture: $(echo "$imported / 1048576" | bc) MiB"
