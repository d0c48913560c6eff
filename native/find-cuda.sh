#!/bin/sh
# Prints the CUDA toolkit prefix whose include/ has cupti.h, as users' machines vary:
# $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, then where nvcc says its toolkit is.
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
vprof: building vprof needs the CUDA toolkit's headers (cupti.h and the headers it includes),
       not a GPU or a driver, and none were found in $CUDA_HOME, $CUDA_PATH, /usr/local/cuda,
       /opt/cuda, nvcc's toolkit or /usr/local/cuda-*. Either install them (the CUDA toolkit, or
       only NVIDIA's cuda-cupti-dev-13-0 and cuda-cudart-dev-13-0 packages) and set CUDA_HOME to
       their prefix, or use a release archive, which runs without building (README, "Install").
MSG
exit 1
