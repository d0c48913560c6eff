#!/bin/sh
# Regenerates ../demangle-corpus.tsv (mangled<TAB>expected), the frozen corpus DemanglerTest
# checks Demangler against, so that the tests need neither g++ nor c++filt.
#
# Names come from compiling the *.cpp files here (kernel-shaped templates modelled on vLLM,
# PyTorch, CUTLASS/CuTe, FlashAttention, FlashInfer and NCCL, plus one file of remaining
# constructs) and taking every _Z symbol nm reports, plus the hand-collected lists
# real-kernels.txt and edge-cases.txt. The expected column is binutils' c++filt output
# (binutils 2.40 and g++ 12.2 were used). --no-recurse-limit only changes names over 1024
# characters, which default c++filt refuses outright; Demangler demangles those up to
# Demangler.MAX_INPUT with its own bounds.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../demangle-corpus.tsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for src in "$here"/*.cpp; do
    obj="$tmp/$(basename "$src" .cpp).o"
    g++ -std=c++20 -c "$src" -o "$obj"
    nm "$obj" | awk '{ print $NF }' | grep '^_Z' >> "$tmp/names"
done
grep -hv '^#' "$here/real-kernels.txt" "$here/edge-cases.txt" | grep . >> "$tmp/names"
LC_ALL=C sort -u "$tmp/names" > "$tmp/sorted"

# c++filt copies each input line to one output line, demangling the symbol on it.
c++filt --no-recurse-limit < "$tmp/sorted" > "$tmp/demangled"
[ "$(wc -l < "$tmp/sorted")" -eq "$(wc -l < "$tmp/demangled")" ]
paste "$tmp/sorted" "$tmp/demangled" > "$out"
echo "wrote $(wc -l < "$out") entries to $out"
