#!/usr/bin/env bash
# PyTorch profiler trace import figures, as a user runs the commands (whole command: JVM start,
# parse, convert, write), with the front end's heap capped (default -Xmx256m):
#  1. a real trace (default HTA's A100 control trace, 34.8 MB of JSON) decompressed to /tmp:
#     `vprof import` wall time and MB/s of JSON, the .vprof's bytes per kernel against the JSON's
#     (with and without --no-cpu-ops);
#  2. a trace of >= SIZE_MB (default 2100 MB) built in /tmp by repeating that trace's events, each
#     copy shifted in time by the trace's span (one line, as Kineto writes it): `vprof import` and
#     `vprof report` of it directly, wall, MB/s, peak heap (largest heap-before-GC in -Xlog:gc, or
#     in use at exit, over every JVM the command started), the process's peak RSS. MB/s of CPU is
#     the JSON over the command's user + sys time (all its threads: JIT and GC included), which a
#     loaded machine stretches less than the wall.
# Everything made is removed at exit. These are parser figures on this machine, not GPU figures.
#   bench/scripts/trace-import.sh [TRACE.json.gz]
#   SIZE_MB=2100 HEAP=256m bench/scripts/trace-import.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/scripts/lib.sh"
src=${1:-$root/fixtures/real/hta/trace_diff/control/control.json.gz}
size_mb=${SIZE_MB:-2100}
heap=${HEAP:-256m}
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-trace-import.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/vprof" --version >/dev/null # builds on first use

# timed LABEL JSON_BYTES CMD...: one command under the heap cap; prints a table row
timed() {
  local label=$1 bytes=$2; shift 2
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  rm -f "$work"/gc-*.log
  # %p: one log per JVM (the launcher may start more than one; a shared file would be rotated away)
  if ! /usr/bin/env time -f '%e %U %S %M' -o "$work/time" env JAVA_TOOL_OPTIONS="-Xmx$heap -Xlog:gc*:file=$work/gc-%p.log" \
      VPROF_NO_BUILD=1 "$@" >"$work/out" 2>"$work/err"; then
    printf '| %s | fails: %s | | | | | | %s |\n' "$label" "$(grep -v '^Picked up' "$work/err" | tail -n1)" "$load"
    return 1
  fi
  local wall user sys rss
  read -r wall user sys rss <"$work/time"
  printf '| %s | %.2f s | %.2f s + %.2f s | %.1f MB/s | %.1f MB/s | %s | %d MiB | %s |\n' "$label" "$wall" "$user" "$sys" \
    "$(echo "$bytes / $wall / 1000000" | bc -l)" "$(echo "$bytes / ($user + $sys) / 1000000" | bc -l)" \
    "$(peak_heap "$work"/gc-*.log)" "$((rss / 1024))" "$load"
}

zcat -f "$src" >"$work/real.json"
real_bytes=$(stat -c %s "$work/real.json")
kernels=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for e in d["traceEvents"] if e.get("cat") in ("kernel","Kernel") and e.get("ph")=="X"))' "$work/real.json")
echo "trace: $src ($real_bytes bytes of JSON, $kernels kernels); machine: $(nproc) cores, heap -Xmx$heap; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | wall | CPU user + sys | JSON MB/s of wall | JSON MB/s of CPU | peak heap | peak RSS | load |"
echo "|---|---|---|---|---|---|---|---|"
timed "import, real trace" "$real_bytes" "$root/vprof" import "$work/real.json" -o "$work/real.vprof"
real_vprof=$(stat -c %s "$work/real.vprof")
timed "import --no-cpu-ops, real trace" "$real_bytes" "$root/vprof" import --no-cpu-ops "$work/real.json" -o "$work/real-nocpu.vprof"
nocpu_vprof=$(stat -c %s "$work/real-nocpu.vprof")

python3 - "$work/real.json" "$work/big.json" "$size_mb" <<'PY'
import json, sys
src, dst, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(src))
events = d.pop("traceEvents")
xs = [e for e in events if isinstance(e.get("ts"), (int, float))]
span = max(e["ts"] + e.get("dur", 0) for e in xs) - min(e["ts"] for e in xs) + 1
parts = []
for e in events:
    if isinstance(e.get("ts"), (int, float)):
        ts = e["ts"]; e["ts"] = "@@TS@@"
        a, b = json.dumps(e).split('"@@TS@@"')
        parts.append((a, ts, b))
    else:
        parts.append((json.dumps(e), None, ""))
head = json.dumps(d)[:-1] + ', "traceEvents": ['
target = size_mb * 1000 * 1000
written = 0
with open(dst, "w") as out:
    out.write(head); written += len(head)
    rep = 0; first = True
    while written < target:
        shift = rep * span
        chunk = []
        for a, ts, b in parts:
            chunk.append(a if ts is None else a + repr(ts + shift if isinstance(ts, int) else round(ts + shift, 3)) + b)
        s = ("" if first else ", ") + ", ".join(chunk)
        first = False
        out.write(s); written += len(s); rep += 1
    out.write("]}")
print(f"built {dst}: {rep} copies of the trace's {len(parts)} events", file=sys.stderr)
PY
big_bytes=$(stat -c %s "$work/big.json")
# The 2.1 GB just written is still being flushed to disk: the first command timed would share the
# machine with that writeback (and read part of the file back from disk). Flush it and read it
# once, so that both commands parse from the page cache, as the second one always did.
sync
cat "$work/big.json" >/dev/null
timed "import, $((big_bytes / 1000000)) MB trace (repeated)" "$big_bytes" "$root/vprof" import "$work/big.json" -o "$work/big.vprof"
big_vprof=$(stat -c %s "$work/big.vprof")
rm -f "$work/big.vprof"
timed "report --json, $((big_bytes / 1000000)) MB trace (repeated)" "$big_bytes" "$root/vprof" report --json "$work/big.json"
big_kernels=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["kernels"])' "$work/out")
echo
echo "| file | bytes | bytes per kernel |"
echo "|---|---|---|"
printf '| real trace, JSON | %d | %.0f |\n' "$real_bytes" "$(echo "$real_bytes / $kernels" | bc -l)"
printf '| real trace, .vprof | %d | %.0f (%.1fx smaller) |\n' "$real_vprof" "$(echo "$real_vprof / $kernels" | bc -l)" "$(echo "$real_bytes / $real_vprof" | bc -l)"
printf '| real trace, .vprof --no-cpu-ops | %d | %.0f (%.1fx smaller) |\n' "$nocpu_vprof" "$(echo "$nocpu_vprof / $kernels" | bc -l)" "$(echo "$real_bytes / $nocpu_vprof" | bc -l)"
printf '| repeated trace, JSON | %d | %.0f (%d kernels) |\n' "$big_bytes" "$(echo "$big_bytes / $big_kernels" | bc -l)" "$big_kernels"
printf '| repeated trace, .vprof | %d | %.0f |\n' "$big_vprof" "$(echo "$big_vprof / $big_kernels" | bc -l)"
