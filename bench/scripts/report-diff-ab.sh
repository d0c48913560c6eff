#!/usr/bin/env bash
# `vprof report --json BASE` and `vprof diff BASE NEW` by this tree and by another build, side by
# side in one run (bench/scripts/ab.sh, which says how): ROUNDS rounds (default 5).
#   bench/scripts/report-diff-ab.sh OTHER_TREE BASE.vprof NEW.vprof [ROUNDS]
set -euo pipefail
usage="usage: report-diff-ab.sh OTHER_TREE BASE.vprof NEW.vprof [ROUNDS]"
other=${1:?$usage}
export AB_BASE=${2:?$usage} AB_NEW=${3:?$usage}
list=$(mktemp "${TMPDIR:-/tmp}/vprof-ab-list.XXXXXX")
trap 'rm -f "$list"' EXIT
printf 'report report --json @AB_BASE@\ndiff diff @AB_BASE@ @AB_NEW@\n' >"$list"
"$(dirname "$0")/ab.sh" "$other" "${4:-5}" "$list"
