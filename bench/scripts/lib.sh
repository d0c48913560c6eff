# Functions the bench scripts share; sourced (`. "$root/bench/scripts/lib.sh"`), never run.

# peak_heap GC_LOG...: the -Xlog:gc* files of one command's JVMs -> "PEAK MiB (live after GC LIVE MiB)".
# PEAK is the larger of the largest heap before any collection ("A M->B M(C M)") and the most in
# use at exit (young + old generation, SerialGC's or G1's exit lines) of any one JVM; LIVE is the
# largest heap after a collection.
peak_heap() {
  local before after at_exit f e
  before=$(cat "$@" | grep -o '[0-9]*M->[0-9]*M([0-9]*M)' | sed 's/M->.*//' | sort -n | tail -n1)
  after=$(cat "$@" | grep -o '[0-9]*M->[0-9]*M([0-9]*M)' | sed 's/.*->//; s/M(.*//' | sort -n | tail -n1)
  at_exit=0
  for f in "$@"; do
    e=$(grep -E 'gc,exit.*(DefNew|Tenured|garbage-first|region).* +total' "$f" | grep -o 'used [0-9]*K' | awk '{s += $2} END {printf "%d", s / 1024}')
    [ "${e:-0}" -gt "$at_exit" ] && at_exit=$e
  done
  awk -v b="${before:-0}" -v e="${at_exit:-0}" -v a="${after:-0}" 'BEGIN {
    printf "%d MiB (live after GC %d MiB)", (b > e ? b : e), a }'
}

# median N...: the middle value (the upper middle of an even count).
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# field NAME: from stdin's "... NAME=123 ..." lines, the last line's number.
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" | tail -n1; }
