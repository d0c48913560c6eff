#!/bin/sh
# Shows that the CUPTI declarations cross-check (cupti-abi-check.sh) catches a wrong number or
# type in src/cupti_abi.h: each mutation below changes one entry so that the header still agrees
# with itself (it compiles, its own static asserts hold, as in a build without CUDA headers) and
# only the real headers can tell; the cross-check must then fail and name that entry. The
# unchanged header must pass first, so a check that always fails cannot pass this test.
# Needs CUDA headers (as the check does); without them it says so and passes, unless
# VPROF_REQUIRE_CUPTI_CHECK=1 (CI). Usage: abi/cupti-abi-mutation.sh   (from anywhere)
set -eu
cd "$(dirname "$0")/.."
cc=${CC:-gcc}
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-abi-mutation.XXXXXX")
trap 'rm -rf "$work"' EXIT

if ! cuda=$(./find-cuda.sh 2>/dev/null); then
  if [ "${VPROF_REQUIRE_CUPTI_CHECK:-0}" = 1 ]; then
    echo "cupti-abi-mutation: FAILED: no CUDA headers to check against (VPROF_REQUIRE_CUPTI_CHECK=1)" >&2
    exit 1
  fi
  echo "cupti-abi-mutation: skipped: no CUDA headers to check against"
  exit 0
fi

# check HEADER: 0 when the cross-check (compiled, then run) accepts HEADER; its diagnostics in $work/out.
check() {
  mkdir -p "$work/src"
  cp "$1" "$work/src/cupti_abi.h"
  "$cc" -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$work/src" -I"$cuda/include" \
    -o "$work/check" abi/cupti_abi_check.c >"$work/out" 2>&1 && "$work/check" >>"$work/out" 2>&1
}

check src/cupti_abi.h || { cat "$work/out" >&2; echo "cupti-abi-mutation: FAILED: the unchanged header does not pass the check" >&2; exit 1; }

failures=0
n=0
# mutate WHAT SED_SCRIPT EXPECTED: apply SED_SCRIPT (GNU sed, whole file as one line: -z) to a
# copy of the header; it must change it, leave it self-consistent, and fail the cross-check
# with a message containing EXPECTED.
mutate() {
  n=$((n + 1))
  sed -z "$2" src/cupti_abi.h >"$work/mutant.h"
  if cmp -s src/cupti_abi.h "$work/mutant.h"; then
    echo "  $n. $1: NOT APPLIED (the header's text changed; update this script)"; failures=$((failures + 1)); return
  fi
  if ! "$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only -x c "$work/mutant.h" 2>"$work/self"; then
    echo "  $n. $1: the mutant is not self-consistent, so it proves nothing about the cross-check:"
    sed 's/^/       /' "$work/self" | head -n 5; failures=$((failures + 1)); return
  fi
  if check "$work/mutant.h"; then
    echo "  $n. $1: NOT CAUGHT"; failures=$((failures + 1)); return
  fi
  if grep -q -- "$3" "$work/out"; then
    echo "  $n. $1: caught ($(grep -o -m1 -- "$3[^\"]*" "$work/out"))"
  else
    echo "  $n. $1: failed, but without naming '$3':"; sed 's/^/       /' "$work/out" | head -n 5
    failures=$((failures + 1))
  fi
}

echo "cupti-abi-mutation: against $cuda/include"
mutate "a field's offset (the kernel records' correlationId 92 -> 88, pads moved with it)" \
  's/P(8) \\\n    F(T,  92, uint32_t, correlationId) \\\n    F(T,  96, int64_t, gridId)/P(4) \\\n    F(T,  88, uint32_t, correlationId) \\\n    P(4) \\\n    F(T,  96, int64_t, gridId)/' \
  'CUpti_ActivityKernel9.correlationId is not at byte 88'
mutate "an enum value (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL 10 -> 11)" \
  's/V(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 10)/V(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 11)/' \
  'CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL is not 11'
mutate "a callback id (CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel 307 -> 308)" \
  's/V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 307)/V(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 308)/' \
  'CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel is not 308'
mutate "a callback id left out of the list (cudaDriverGetVersion_v3020, 1)" \
  's/    V(CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020, 1) \\\n//' \
  'runtime callback ids skip or repeat one at entry 1'
mutate "an attribute id (CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER 9 -> 10)" \
  's/V(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, 9)/V(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, 10)/' \
  'CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER is not 10'
mutate "a record's size (Kernel10 216 -> 224 bytes)" \
  's/S(CUpti_ActivityKernel10, CUpti_ActivityKernel10, struct, 216,/S(CUpti_ActivityKernel10, CUpti_ActivityKernel10, struct, 224,/; s/VPROF_FIELDS_KERNEL_PREFIX(F, P, T) P(40)/VPROF_FIELDS_KERNEL_PREFIX(F, P, T) P(48)/' \
  'CUpti_ActivityKernel10 is not 224 bytes'
mutate "a field's type (the kernel records' completed uint64_t -> int64_t)" \
  's/F(T,  32, uint64_t, completed)/F(T,  32, int64_t, completed)/' \
  'CUpti_ActivityKernel9.completed is not of type int64_t'
mutate "a constant (NVTX_EVENT_ATTRIB_STRUCT_SIZE 48 -> 40)" \
  's/C(NVTX_EVENT_ATTRIB_STRUCT_SIZE, 48)/C(NVTX_EVENT_ATTRIB_STRUCT_SIZE, 40)/' \
  'NVTX_EVENT_ATTRIB_STRUCT_SIZE is not 40'
mutate "a typedef (CUpti_CallbackId uint32_t -> int32_t)" \
  's/T(CUpti_CallbackId, uint32_t)/T(CUpti_CallbackId, int32_t)/' \
  'typedef CUpti_CallbackId is not int32_t'
mutate "a prototype (cuptiActivityFlushAll(uint32_t) -> (uint64_t))" \
  's/cuptiActivityFlushAll, (uint32_t flag)/cuptiActivityFlushAll, (uint64_t flag)/' \
  'cuptiActivityFlushAll is not CUptiResult (uint64_t flag)'
mutate "the NVTX injection entry point (int -> void)" \
  's/X(int, InitializeInjectionNvtx2,/X(void, InitializeInjectionNvtx2,/' \
  'InitializeInjectionNvtx2 is not a NvtxInitializeInjectionNvtxFunc_t'

if [ "$failures" -ne 0 ]; then
  echo "cupti-abi-mutation: FAILED: $failures of $n mutations not caught as they should be" >&2
  exit 1
fi
echo "cupti-abi-mutation: all $n mutations caught by the cross-check"
