#!/usr/bin/env bash
# The SQLite export's speed beside Debian's sqlite3 loading the same rows, in one run:
#   1. SqliteExportBenchmark (JMH) writes 1 M kernels, without and with a launch call each, and keeps
#      its last file of each;
#   2. the kernel (and runtime) rows of those files go out as CSV (not timed);
#   3. sqlite3 loads them into an empty database of the same schema and pragmas (page size 64 KiB, no
#      journal, no fsync, one transaction), timed two ways: `.import` of the CSV (parse and insert),
#      and `INSERT INTO ... SELECT ... WHERE` from the attached file (SQLite decoding and inserting each
#      row, nothing to parse; the WHERE keeps SQLite from copying the records whole, which it does for a
#      bare SELECT * of a table of the same schema).
# Each is given per second of wall and per second of the process's CPU (user + system): on a shared,
# loaded machine the second is the steadier one.
# Prints rows per second of each and the ratio to vprof's, and writes bench/results/SqliteVsSqlite3.txt.
#   bench/scripts/sqlite-vs-sqlite3.sh
#   JMH_OPTS="-f 1 -wi 2 -w 2 -i 5 -r 2" bench/scripts/sqlite-vs-sqlite3.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
jar="$root/bench/target/benchmarks.jar"
out="$root/bench/results/SqliteVsSqlite3.txt"
opts=${JMH_OPTS:--f 1 -wi 2 -w 2 -i 5 -r 2}
command -v sqlite3 >/dev/null || { echo "sqlite-vs-sqlite3.sh: needs Debian's sqlite3 (apt-get install sqlite3)" >&2; exit 2; }
[ -f "$jar" ] || (cd "$root" && mvn -B -q -pl bench -am package -DskipTests)
java=${JAVA:-$(ls -d /usr/lib/jvm/temurin-25-jdk-amd64 2>/dev/null || true)/bin/java}
[ -x "$java" ] || java=java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
before=$(cut -d' ' -f1-3 /proc/loadavg)

# shellcheck disable=SC2086
"$java" -jar "$jar" SqliteExportBenchmark $opts -jvmArgsAppend "-Dvprof.bench.keep=$work/vprof" \
  -rf json -rff "$work/jmh.json" >"$work/jmh.log" 2>&1 || { tail -n 20 "$work/jmh.log" >&2; exit 1; }
score() { # launches=false|true -> kernels/s of wall, its error, kernels/s of the writing thread's CPU (mean of the iterations)
  python3 - "$work/jmh.json" "$work/jmh.log" "$1" <<'EOF'
import json, re, sys
cpu, current, measuring = {}, None, False
for line in open(sys.argv[2]):
    m = re.match(r"# Parameters: \(launches = (\w+)\)", line)
    if m:
        current, measuring = m.group(1), False
    if line.startswith("Iteration "):
        measuring = True
    m = re.search(r"kernels/s of CPU = (\d+)", line)
    if m and measuring:
        cpu.setdefault(current, []).append(float(m.group(1)))
for r in json.load(open(sys.argv[1])):
    p = r["params"]["launches"]
    if p == sys.argv[3]:
        c = cpu.get(p, [0])
        print("%.0f %.0f %.0f" % (r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"], sum(c) / len(c)))
EOF
}

timed() { # command... -> "wall cpu" seconds
  local t; t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null; } 2>&1 )
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$t"
}
{
  echo "SQLite export (SqliteExportBenchmark, $opts) beside Debian's $(sqlite3 --version | cut -d' ' -f1) loading the same rows"
  echo "machine: $(nproc) vCPU, $(uname -m); load average before: $before; $(date -u +%FT%TZ)"
  for launches in false true; do
    if [ "$launches" = true ]; then
      src="$work/vprof-launches.sqlite" tables="CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_RUNTIME"
    else
      src="$work/vprof.sqlite" tables="CUPTI_ACTIVITY_KIND_KERNEL"
    fi
    read -r vprof err vprofCpu < <(score "$launches")
    kernels=$(sqlite3 "$src" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")
    rows=0
    for t in $tables; do
      sqlite3 -csv "$src" "SELECT * FROM $t" >"$work/$t.csv"
      rows=$((rows + $(sqlite3 "$src" "SELECT count(*) FROM $t")))
    done
    empty() { # a database with the export's schema and pragmas, no rows
      rm -f "$1"
      { echo "PRAGMA page_size=65536;"; sqlite3 "$src" ".schema"; } | sqlite3 "$1"
    }
    script="PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-16384; BEGIN;"
    empty "$work/import.sqlite"
    imports=()
    for t in $tables; do imports+=(".import --csv $work/$t.csv $t"); done
    read -r impWall impCpu < <(timed sqlite3 "$work/import.sqlite" "$script" "${imports[@]}" "COMMIT;")
    empty "$work/insert.sqlite"
    inserts="ATTACH '$src' AS src; $script"
    for t in $tables; do inserts+=" INSERT INTO main.$t SELECT * FROM src.$t WHERE rowid > 0;"; done
    read -r insWall insCpu < <(timed sqlite3 "$work/insert.sqlite" "$inserts COMMIT;")
    python3 - "$launches" "$kernels" "$rows" "$vprof" "$err" "$vprofCpu" "$impWall" "$impCpu" "$insWall" "$insCpu" <<'EOF'
import sys
launches = sys.argv[1]
kernels, rows, vprof, err, vcpu, iw, ic, sw, sc = map(float, sys.argv[2:])
k = rows / kernels
print(f"launches={launches}: {int(kernels):,} kernels, {int(rows):,} rows")
print(f"  {'vprof export (JMH)':<37} {vprof * k:>11,.0f} rows/s of wall (± {err * k:,.0f}), {vcpu * k:>11,.0f} per CPU second"
      f"  ({vprof:,.0f} kernels/s)")
for name, w, c in (("sqlite3 .import of the CSV", iw, ic), ("sqlite3 INSERT ... SELECT ... WHERE", sw, sc)):
    print(f"  {name:<37} {rows / w:>11,.0f} rows/s of wall, {rows / c:>11,.0f} per CPU second ({w:.2f} s, {c:.2f} s CPU)"
          f"  -> vprof {vprof * k / (rows / w):.2f}x of wall, {vcpu * k / (rows / c):.2f}x of CPU")
EOF
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
