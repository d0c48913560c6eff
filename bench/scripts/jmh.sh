#!/usr/bin/env bash
# Runs vprof's JMH benchmarks, short, one fork each, raw JSON into bench/results/NAME.json,
# JMH's full output into bench/results/NAME.log
# and the load average before and after into bench/results/NAME.load (on a shared machine
# a number taken under load is a lower bound; rerun it when the machine is quiet).
#   bench/scripts/jmh.sh [NAME...]          (default: all six)
#   JMH_OPTS="-f 1 -wi 3 -i 5" bench/scripts/jmh.sh RingDrainBenchmark
# Each class's own @Fork(jvmArgsAppend) supplies the JVM flags it needs
# (--enable-native-access, Agrona's --add-exports, -Xmx).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
jar="$root/bench/target/benchmarks.jar"
results="$root/bench/results"
opts=${JMH_OPTS:--f 1 -wi 2 -w 1 -i 3 -r 1}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(RingDrainBenchmark CaptureWriterBenchmark ExportBenchmark OtlpReceiverBenchmark
                                ExpositionParserBenchmark DemangleBenchmark)
[ -f "$jar" ] || (cd "$root" && mvn -B -q -pl bench -am package -DskipTests)
java=${JAVA:-$(ls -d /usr/lib/jvm/temurin-25-jdk-amd64 2>/dev/null || true)/bin/java}
[ -x "$java" ] || java=java
mkdir -p "$results"
for n in "${names[@]}"; do
  echo "== $n ($opts)"
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  # shellcheck disable=SC2086
  "$java" -jar "$jar" "$n" $opts -rf json -rff "$results/$n.json" >"$results/$n.log" 2>&1 || {
    echo "   $n failed; see $results/$n.log" >&2; tail -n 20 "$results/$n.log" >&2; exit 1; }
  grep -E '^(Benchmark|[A-Za-z]+Benchmark\.)|bytes/kernel' "$results/$n.log" | sort -u || true
  after=$(cut -d' ' -f1-3 /proc/loadavg)
  printf 'opts: %s\nload before: %s\nload after: %s\ndate: %s\n' "$opts" "$before" "$after" "$(date -u +%FT%TZ)" \
    >"$results/$n.load"
  echo "   load average before: $before, after: $after"
done
