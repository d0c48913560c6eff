#!/usr/bin/env bash
# The flight recorder's soak on the CUPTI test double (never a GPU figure): WatchSoakTest for
# SECONDS (default 1800, CI runs 120): vprof watch with a 20 s window of 5 s segments over a
# vprof-simgpu --serve target fed steps all along; every 5 s a SOAK line with the window (from the
# files on disk), its bytes, the watch's live heap after a GC, its RSS and open files; at the end
# kernels launched = recorded + counted drops.
#
# Usage: bench/scripts/watch-soak.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-1800}
echo "watch-soak: ${seconds}s, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
mvn -B -q verify -pl java -am -Dtest=WatchSoakTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dvprof.soak.seconds="$seconds" -DtrimStackTrace=false 2>&1 | grep -E '^SOAK|Tests run|FAIL|expected' || true
echo "watch-soak: load at the end $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
