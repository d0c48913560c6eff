#!/usr/bin/env bash
# Commands of this tree and of another build side by side in one run, the two alternating so that the
# machine's load falls on both alike: ROUNDS rounds, each runs every command of COMMANDS by this tree
# and by the other (which goes first flips every round), each with -Xmx256m. COMMANDS is a file of
# lines `NAME ARGS...` (# starts a comment): ARGS is what follows `vprof`, word-split as the shell
# does; @OUT@ in it becomes a fresh path under a scratch folder, removed after each run; @TREE@ the
# tree that runs it (for its native/target/native/vprof-simgpu); any other @NAME@ the environment
# variable NAME (the captures: bench/scripts/ab-shared-layer.txt). Prints each run's wall and CPU
# (user + sys, of vprof and every child it waited for) and peak heap (the largest heap-before-GC
# in -Xlog:gc, or in use at exit), then per command the median CPU of each tree and their ratio
# (this tree / the other). CPU time is the figure to compare on a shared machine; wall time follows
# the load. On captures of the CUPTI test double these are front-end figures, not a GPU's.
#   bench/scripts/ab.sh OTHER_TREE ROUNDS COMMANDS
set -euo pipefail
usage="usage: ab.sh OTHER_TREE ROUNDS COMMANDS"
root=$(cd "$(dirname "$0")/../.." && pwd)
other=$(cd "${1:?$usage}" && pwd)
rounds=${2:?$usage}
commands=${3:?$usage}
[ -r "$commands" ] || { echo "ab.sh: cannot read the command file $commands" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$root/vprof" --version >/dev/null
"$other/vprof" --version >/dev/null

peak() { # a -Xlog:gc* file -> MiB
  local before at_exit
  before=$(grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$1" 2>/dev/null | sed 's/M->.*//' | sort -n | tail -n1)
  at_exit=$(grep -E 'gc,exit.*(DefNew|Tenured).* +total' "$1" 2>/dev/null | grep -o 'used [0-9]*K' | awk '{s += $2} END {printf "%d", s / 1024}')
  echo $(( ${before:-0} > ${at_exit:-0} ? ${before:-0} : ${at_exit:-0} ))
}

one() { # TREE-NAME TREE COMMAND-NAME ARGS...
  local name=$1 tree=$2 cmd=$3; shift 3
  local log="$work/gc.log" out="$work/out.d" args=() a
  rm -rf "$log" "$out"
  mkdir -p "$out"
  for a in "$@"; do
    a=${a//@OUT@/$out/o}
    a=${a//@TREE@/$tree}
    while [[ $a =~ @([A-Z][A-Z0-9_]*)@ ]]; do # @NAME@: the environment variable NAME
      local v=${BASH_REMATCH[1]}
      [ -n "${!v:-}" ] || { echo "ab.sh: $v is not set (the command file names @$v@)" >&2; exit 2; }
      a=${a//@$v@/${!v}}
    done
    args+=("$a")
  done
  local rc=0
  /usr/bin/env time -f '%e %U %S' -o "$work/time" env JAVA_TOOL_OPTIONS="-Xmx256m -Xlog:gc*:file=$log" \
      VPROF_NO_BUILD=1 "$tree/vprof" "${args[@]}" >"$work/out" 2>"$work/err" || rc=$?
  read -r wall user sys < <(tail -n1 "$work/time")
  local cpu; cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
  printf '%-6s %-14s wall %6.2f s  cpu %6.2f s  peak heap %4d MiB  exit %d  load %s\n' "$name" "$cmd" "$wall" "$cpu" \
      "$(peak "$log")" "$rc" "$(cut -d' ' -f1 /proc/loadavg)"
  echo "$name $cmd $cpu" >>"$work/cpu"
  rm -rf "$out"
}

mapfile -t lines < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$commands")
echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of ${#lines[@]} commands"
for ((i = 0; i < rounds; i++)); do
  for line in "${lines[@]}"; do
    read -r -a words <<<"$line"
    if ((i % 2 == 0)); then
      one this "$root" "${words[@]}"; one other "$other" "${words[@]}"
    else
      one other "$other" "${words[@]}"; one this "$root" "${words[@]}"
    fi
  done
done
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
for line in "${lines[@]}"; do
  read -r cmd _ <<<"$line"
  t=$(awk -v c="$cmd" '$1 == "this" && $2 == c {print $3}' "$work/cpu" | median)
  o=$(awk -v c="$cmd" '$1 == "other" && $2 == c {print $3}' "$work/cpu" | median)
  printf '%-14s median CPU this tree %6.2f s, other %6.2f s, ratio %.3f\n' "$cmd" "$t" "$o" "$(awk -v t="$t" -v o="$o" 'BEGIN {print t / o}')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
