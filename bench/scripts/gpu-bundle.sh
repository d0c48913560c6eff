#!/usr/bin/env bash
# Builds the GPU bundle: one folder to carry to a machine with an NVIDIA GPU, nvcc and PyTorch
# but no JDK and no network. It holds this machine's release archive (scripts/release.sh: the
# launcher, the jar, the native files, a jlinked runtime), the GPU self-test's sources
# (native/gpu/: the same files the jar builds and runs) and gpu-check.sh, which runs the whole
# GPU self-test and the PyTorch comparison within 8 minutes. At most 60 MiB.
#
#   bench/scripts/gpu-bundle.sh [--no-build] [--arch x86_64|aarch64]    -> target/gpu-bundle/
#   then, on the GPU machine:  target/gpu-bundle/gpu-check.sh OUTDIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
arch=$(uname -m)
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) args+=(--no-build) ;;
    --arch) shift; arch=${1:-} ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-bundle.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
"$root/scripts/release.sh" --arch "$arch" "${args[@]}" >&2
archive=$(ls -t "$root"/target/release/vprof-*-linux-"$arch".tar.gz | head -n1)
bundle="$root/target/gpu-bundle"
rm -rf "$bundle"
mkdir -p "$bundle/gpu"
cp "$archive" "$bundle/"
cp "$root"/native/gpu/* "$bundle/gpu/"
cp "$root/bench/scripts/gpu-check.sh" "$bundle/gpu-check.sh"
chmod 755 "$bundle/gpu-check.sh"
bytes=$(du -sb "$bundle" | cut -f1)
printf 'gpu-bundle.sh: %s  %.1f MiB\n' "$bundle" "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')"
[ "$bytes" -le $((60 * 1024 * 1024)) ] || { echo "gpu-bundle.sh: the bundle is over 60 MiB" >&2; exit 1; }
echo "gpu-bundle.sh: on the GPU machine run: $bundle/gpu-check.sh OUTDIR" >&2
