#!/bin/sh
# Checks vprof's CUPTI declarations (src/cupti_abi.h) against the real CUDA headers: builds and
# runs cupti_abi_check.c, whose every line is a compile-time assertion generated from the
# header's lists. vprof builds without CUDA headers; this check is the one thing that needs them.
# With none (or headers of another CUPTI release) it says so and passes, unless
# VPROF_REQUIRE_CUPTI_CHECK=1 (CI), which makes a skipped check a failure.
# Usage: abi/cupti-abi-check.sh [OUT_DIR]   (run from native/; CUDA_HOME picks the headers)
set -eu
cd "$(dirname "$0")/.."
out=${1:-target/abi}
cc=${CC:-gcc}
required=${VPROF_REQUIRE_CUPTI_CHECK:-0}

skip() {
  if [ "$required" = 1 ]; then
    echo "cupti-abi: FAILED: $1 (VPROF_REQUIRE_CUPTI_CHECK=1 requires the check)" >&2
    exit 1
  fi
  echo "cupti-abi: skipped: $1"
  exit 0
}

cuda=$(./find-cuda.sh 2>/dev/null) ||
  skip "no CUDA headers (include/cupti.h) in \$CUDA_HOME, \$CUDA_PATH, /usr/local/cuda, /opt/cuda, nvcc's toolkit or /usr/local/cuda-*; set CUDA_HOME to check against a toolkit"

# The release the declarations describe, and the one these headers are.
ours=$(sed -n 's/^#define VPROF_CUPTI_RELEASE(R) R(CUPTI_API_VERSION, \([0-9]*\)).*/\1/p' src/cupti_abi.h)
theirs=$(printf '#include <cupti_version.h>\nCUPTI_API_VERSION\n' | "$cc" -E -P -I"$cuda/include" - 2>/dev/null | tail -n1)
[ -n "$ours" ] || { echo "cupti-abi: src/cupti_abi.h has no VPROF_CUPTI_RELEASE line" >&2; exit 1; }
case "$theirs" in
  ''|*[!0-9]*) skip "the headers in $cuda/include do not say their CUPTI_API_VERSION" ;;
esac
[ $((theirs / 100)) -eq $((ours / 100)) ] ||
  skip "the headers in $cuda/include are CUPTI $theirs; src/cupti_abi.h describes CUPTI $ours (release $((ours / 100))): check against that release's headers"

mkdir -p "$out"
"$cc" -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Isrc -I"$cuda/include" \
  -o "$out/cupti_abi_check" abi/cupti_abi_check.c ||
  { echo "cupti-abi: FAILED: src/cupti_abi.h differs from the CUDA headers in $cuda/include (the assertion above names the entry)" >&2; exit 1; }
"$out/cupti_abi_check"
