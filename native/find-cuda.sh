#!/bin/sh
# Prints the CUDA toolkit prefix whose include/ has cupti.h, as users' machines vary:
# $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, then where nvcc says its toolkit is. vprof builds
# without one; abi/cupti-abi-check.sh uses it to check vprof's CUPTI declarations.
for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda /opt/cuda; do
  [ -n "$d" ] && [ -f "$d/include/cupti.h" ] && { echo "$d"; exit 0; }
done
if command -v nvcc >/dev/null 2>&1; then
  # nvcc may be a wrapper script; its dry run names the real toolkit (TOP=...).
  top=$(nvcc --dryrun --version 2>&1 | sed -n 's/^#\$ TOP=//p' | head -n1)
  [ -z "$top" ] && top=$(dirname "$(dirname "$(command -v nvcc)")")
  [ -f "$top/include/cupti.h" ] && { (cd "$top" && pwd -P); exit 0; }
fi
for d in /usr/local/cuda-*; do
  [ -f "$d/include/cupti.h" ] && { echo "$d"; exit 0; }
done
cat >&2 <<'MSG'
vprof: no CUDA toolkit headers (include/cupti.h) in $CUDA_HOME, $CUDA_PATH, /usr/local/cuda,
       /opt/cuda, nvcc's toolkit or /usr/local/cuda-*. vprof builds without them; they are
       needed only to check its CUPTI declarations against CUDA's (set CUDA_HOME to a toolkit,
       or install NVIDIA's cuda-cupti-dev-13-0 and cuda-cudart-dev-13-0 packages).
MSG
exit 1
