#!/usr/bin/env bash
# The _Static_asserts of include/vprof_ring.h guard the shared layout: this takes each pad out
# of a copy of the header and checks that the copy no longer compiles (and that the header as
# it is does).
#   ring_layout_test.sh [CC]
set -u
cc=${1:-${CC:-gcc}}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/vprof-ring-layout.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

compiles() { # HEADER-DIR: does a file including vprof_ring.h compile?
    echo '#include "vprof_ring.h"' | "$cc" -std=c11 -fsyntax-only -I"$1" -x c - 2>"$work/err"
}

# without PATTERN (a sed expression run on the header) the header must not compile.
without() {
    local name=$1 sed_expr=$2
    mkdir -p "$work/$name"
    sed "$sed_expr" "$here/include/vprof_ring.h" >"$work/$name/vprof_ring.h"
    if cmp -s "$here/include/vprof_ring.h" "$work/$name/vprof_ring.h"; then
        echo "FAIL $name: the pattern took nothing out of the header"; failed=$((failed + 1))
    elif compiles "$work/$name"; then
        echo "FAIL $name: the header still compiles"; failed=$((failed + 1))
    else
        echo "ok   $name: $(grep -c 'error: ' "$work/err") errors, the first: $(grep -m1 -o 'error: .*' "$work/err")"
        passed=$((passed + 1))
    fi
}

if compiles "$here/include"; then
    echo "ok   theHeaderAsItIsCompiles"; passed=$((passed + 1))
else
    echo "FAIL theHeaderAsItIsCompiles"; cat "$work/err"; failed=$((failed + 1))
fi
for i in 0 1 2 3 4 5 6 7 8 9 10; do
    without "removingPad${i}OfTheControlBlockBreaksTheBuild" "s/uint8_t *pad$i\[VPROF_CACHE_LINE\];//"
done
without removingTheReservedTailBreaksTheBuild 's/uint8_t reserved\[.*\];//'
# Fields that overflow their line push every later offset (line 0 has 8 bytes free).
without aFieldThatOverflowsItsLineBreaksTheBuild 's/\(uint64_t agent_flags;.*\)/\1 uint64_t two[2];/'
for rec in memcpy memset marker sync cpu_op; do
    without "removingThe${rec^}RecordsPadBreaksTheBuild" "/^struct vprof_rec_$rec {/,/^};/{/uint32_t pad;/d}"
done
without aRecordThatGrowsBreaksTheBuild '/^struct vprof_rec_kernel {/,/^};/{s/\(uint32_t desc_id;.*\)/\1 uint32_t extra;/}'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
