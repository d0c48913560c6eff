#!/bin/sh
# Writes the Nsight Systems schema facts the SQLite export follows, read from the two real nsys
# exports in fixtures/real (nothing typed by hand):
#   nsys-tables.sql  every table of the 2026.2.1 export (export schema 3.25.0), then the tables a
#                    reader may join that only the 2022.2 export (2.9.1) has; per column its name,
#                    declared type, NOT NULL and PRIMARY KEY, in nsys's order
#   nsys-enums.tsv   every row of every ENUM_* table of the 3.25.0 export: table, id, name, label
# into java/src/main/resources/dev/vprof/export/sqlite/. NsysSchemaFactsTest checks both against the
# fixtures on every build, so run this again only when a newer export joins the fixtures.
# Usage: scripts/nsys-schema-facts.sh   (needs Debian's sqlite3)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
now="$root/fixtures/real/nsys-ai/h100_2gpu_1s.sqlite"
old="$root/fixtures/real/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
out="$root/java/src/main/resources/dev/vprof/export/sqlite"
# Tables of the 2.9.1 export that the 3.25.0 one lacks and that readers of nsys files query or
# join: the GPUs, CUDA and OS runtime call stacks, OS runtime calls, CUDA graph node creation, and
# the 2.9.1 name of the export's metadata.
old_only="TARGET_INFO_GPU CUDA_CALLCHAINS OSRT_API OSRT_CALLCHAINS CUDA_GRAPH_EVENTS EXPORT_META_DATA"
mkdir -p "$out"

# One table as canonical DDL: a column per line, its type, NOT NULL, and the key.
ddl() { # db table
  sqlite3 -separator '|' "$1" "SELECT name, type, \"notnull\", pk, (SELECT count(*) FROM pragma_table_info('$2') WHERE pk > 0)
                               FROM pragma_table_info('$2') ORDER BY cid" |
  awk -F'|' -v t="$2" '
    { line = "    " $1 " " $2; if ($3 == 1) line = line " NOT NULL"
      if ($4 > 0 && $5 == 1) line = line " PRIMARY KEY"
      if ($4 > 0 && $5 > 1) key[$4] = $1
      cols[++n] = line; keys = $5 }
    END { print "CREATE TABLE " t " ("
          for (i = 1; i <= n; i++) printf "%s%s\n", cols[i], (i < n || keys > 1) ? "," : ""
          if (keys > 1) { printf "    PRIMARY KEY ("; for (k = 1; k <= keys; k++) printf "%s%s", key[k], k < keys ? ", " : ""; print ")" }
          print ");" }'
}

{
  echo "-- Nsight Systems' tables, derived by scripts/nsys-schema-facts.sh from fixtures/real:"
  echo "-- nsys 2026.2.1 (export schema 3.25.0), then tables only nsys 2022.2 (2.9.1) has."
  for t in $(sqlite3 "$now" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"); do ddl "$now" "$t"; done
  for t in $old_only; do ddl "$old" "$t"; done
} > "$out/nsys-tables.sql"

{
  printf 'table\tid\tname\tlabel\n'
  for t in $(sqlite3 "$now" "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ENUM!_%' ESCAPE '!' ORDER BY name"); do
    sqlite3 -separator "$(printf '\t')" "$now" "SELECT '$t', id, name, label FROM $t ORDER BY id"
  done
} > "$out/nsys-enums.tsv"
echo "wrote $out/nsys-tables.sql ($(grep -c '^CREATE TABLE' "$out/nsys-tables.sql") tables) and nsys-enums.tsv ($(($(wc -l < "$out/nsys-enums.tsv") - 1)) rows)"
