#!/bin/sh
# Differential check of Demangler against c++filt, for whoever changes the demangler: runs
# both on every prefix of the corpus, random edits of it and random grammar-built names
# (random_names.py), and lists every name where Demangler prints something that is neither
# c++filt's output nor the unchanged name. Needs c++filt, python3 and compiled classes
# (mvn -pl java -am compile, or set CLASSES). Usage: crosscheck.sh [seed] [count]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
classes=${CLASSES:-$here/../../../../../target/classes}
seed=${1:-1}
count=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$here/random_names.py" "$here/../demangle-corpus.tsv" "$seed" "$count" > "$tmp/names"
c++filt --no-recurse-limit < "$tmp/names" > "$tmp/expected"
"${JAVA:-java}" -cp "$classes" "$here/CrossCheck.java" < "$tmp/names" > "$tmp/actual"
paste "$tmp/names" "$tmp/expected" "$tmp/actual" | awk -F'\t' '
    $3 == $2 { same++; next }
    $3 == $1 { unchanged++; next }
    { wrong++; print "WRONG " $1 "\n  c++filt: " $2 "\n  actual:  " $3 }
    END { printf "%d names: %d as c++filt, %d unchanged, %d wrong\n", NR, same, unchanged, wrong
          exit wrong > 0 }'
