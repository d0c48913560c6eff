#!/usr/bin/env bash
# `vprof report CAPTURE --html` with the heap capped (default -Xmx256m), as a user runs it (the
# whole command: JVM start, the report's pass and the page's pass, the file): wall and CPU time,
# peak RSS and the page's size; then the page loaded RUNS times (default 5) in headless Chromium,
# each in a new tab, with the first contentful paint and the load event's end as the browser
# timed them. A CAPTURE that does not exist yet is made first and kept, as export-heap.sh makes
# it: `vprof run` around the CUPTI test double's vprof-simgpu, STEPS steps (default 250000) of 40
# kernels (10 M kernels). Figures of the page on this machine, not GPU figures.
#   bench/scripts/html-page.sh CAPTURE
#   HEAP=256m RUNS=5 STEPS=250000 bench/scripts/html-page.sh /tmp/10m.vprof
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
capture=${1:?usage: html-page.sh CAPTURE}
heap=${HEAP:-256m}
runs=${RUNS:-5}
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
[ -x "$java" ] || java=java
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-html-page.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/vprof" --version >/dev/null # builds on first use
[ -d "$root/java/target/test-classes/dev/vprof/html" ] || (cd "$root" && mvn -B -q -o -pl java test-compile)
if [ ! -e "$capture" ]; then
  echo "making $capture: vprof run around vprof-simgpu --steps ${STEPS:-250000} (the CUPTI test double)"
  JAVA_TOOL_OPTIONS=-Xmx256m VPROF_NO_BUILD=1 "$root/vprof" run -o "$capture" -- \
      "$root/native/target/native/vprof-simgpu" --steps "${STEPS:-250000}" --kernels-per-step 40 --step-us 0 2>&1 | tail -n1
fi
page="$work/page.html"
load=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/env time -f '%e %U %S %M' -o "$work/time" env JAVA_TOOL_OPTIONS="-Xmx$heap" VPROF_NO_BUILD=1 \
    "$root/vprof" report "$capture" --html "$page" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
read -r wall user sys rss <"$work/time"
kernels=$(grep -o '[0-9]* kernels in all' "$page" | head -n1 | cut -d' ' -f1)
echo "capture: $capture ($(du -h "$capture" | cut -f1), $kernels kernels); machine: $(nproc) cores; load before: $load"
printf 'vprof report --html, -Xmx%s: %.2f s wall, %.2f s user + %.2f s sys, peak RSS %d MiB; page %d bytes (%.1f KiB)\n' \
  "$heap" "$wall" "$user" "$sys" "$((rss / 1024))" "$(stat -c %s "$page")" "$(echo "$(stat -c %s "$page") / 1024" | bc -l)"
"$java" -cp "$root/java/target/vprof.jar:$root/java/target/test-classes" dev.vprof.html.FirstPaint "$page" "$runs" \
  2> >(grep -v 'unexpected operator' >&2)
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
