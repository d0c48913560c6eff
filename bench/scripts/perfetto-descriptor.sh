#!/usr/bin/env bash
# Regenerates java/src/test/resources/third_party/perfetto/perfetto_trace.desc, the FileDescriptorSet that
# PerfettoSchemaDecodeTest decodes vprof's .pftrace output against, from perfetto_trace.proto next
# to it (Perfetto's own merged schema; see PROVENANCE.md there). protoc is not part of the build:
# this fetches it from Maven Central (com.google.protobuf:protoc, the version of the protobuf-java
# test dependency in java/pom.xml) and is run by hand after the .proto is updated.
#   bench/scripts/perfetto-descriptor.sh [PROTOC]   (PROTOC: a protoc binary to use instead)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/java/src/test/resources/third_party/perfetto"
version=4.35.1
protoc=${1:-}
if [ -z "$protoc" ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/vprof-protoc.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    mvn -B -q dependency:copy "-Dartifact=com.google.protobuf:protoc:$version:exe:linux-x86_64" "-DoutputDirectory=$tmp"
    protoc="$tmp/protoc-$version-linux-x86_64.exe"
    chmod +x "$protoc"
fi
"$protoc" --proto_path="$dir" --include_imports --descriptor_set_out="$dir/perfetto_trace.desc" perfetto_trace.proto
echo "wrote $dir/perfetto_trace.desc ($(wc -c <"$dir/perfetto_trace.desc") bytes) with $("$protoc" --version)"
