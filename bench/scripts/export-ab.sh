#!/usr/bin/env bash
# The Perfetto, Chrome JSON and Kineto exports of one capture by this tree and by another build,
# compared field by field where order carries meaning and as sets where it does not:
#   Perfetto: every packet sequence (trusted_packet_sequence_id) packet by packet, byte for byte
#     (compressed batches inflated first, since their boundaries move); the order of packets of
#     different sequences in the file is reported, not required (each sequence is read on its own).
#   Chrome JSON and Kineto: the text around the event list exactly, the events as a sorted list
#     of lines (a viewer orders events by their timestamps, not by their place in the file).
# Anything else that differs fails the run. Builds from before the Kineto export work name copies differently
# ("Memcpy HtoD" for "Memcpy HtoD (Pinned -> Device)"): compare builds on the same side of it.
# OTHER_VPROF is the other build's launcher (e.g. an unpacked `git archive` of main: OTHER/vprof);
# CAPTURE a .vprof file (vprof demo writes one to ./vprof-demo/capture.vprof). JAVA_TOOL_OPTIONS
# passes through (e.g. -Xmx1g for an old build on a large capture).
#   bench/scripts/export-ab.sh OTHER_VPROF CAPTURE [perfetto,chrome,kineto]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
other=${1:?usage: export-ab.sh OTHER_VPROF CAPTURE [FORMATS]}
capture=${2:?usage: export-ab.sh OTHER_VPROF CAPTURE [FORMATS]}
formats=${3:-perfetto,chrome,kineto}
work=$(mktemp -d "${TMPDIR:-/tmp}/vprof-export-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
for side in other this; do
  vprof=$other; [ "$side" = this ] && vprof="$root/vprof"
  mkdir -p "$work/$side/kineto"
  [[ $formats == *perfetto* ]] && "$vprof" export "$capture" -o "$work/$side/trace.pftrace" >/dev/null
  [[ $formats == *chrome* ]] && "$vprof" export "$capture" -o "$work/$side/trace.json" >/dev/null
  [[ $formats == *kineto* ]] && "$vprof" export "$capture" -o "$work/$side/kineto/trace.json" --format kineto >/dev/null
done
failed=0

# JSON: the text before the first event and after the last must match; the events, sorted, too.
json_ab() { # $1 label, $2 $3 files
  local label=$1 a=$2 b=$3 d=$work/json
  mkdir -p "$d"
  for f in a b; do
    local src=$a; [ "$f" = b ] && src=$b
    # One event per line; the list starts after the line ending in "traceEvents": [ (or ":[")
    awk -v head="$d/$f.head" -v tail="$d/$f.tail" -v body="$d/$f.body" '
      state == 0 { print > head; if ($0 ~ /"traceEvents": ?\[$/) state = 1; next }
      state == 1 && /^ *\]/ { state = 2 }
      state == 1 { sub(/,$/, ""); print > body; next }
      { print > tail }' "$src"
    LC_ALL=C sort -S 512M -o "$d/$f.body" "$d/$f.body"
  done
  local n; n=$(wc -l <"$d/a.body")
  if cmp -s "$d/a.head" "$d/b.head" && cmp -s "$d/a.tail" "$d/b.tail" && cmp -s "$d/a.body" "$d/b.body"; then
    echo "$label: identical as sets of events ($n events); file order $(cmp -s "$a" "$b" && echo identical || echo differs)"
  else
    echo "$label: DIFFERENT"
    diff <(cat "$d/a.head" "$d/a.tail") <(cat "$d/b.head" "$d/b.tail") | head -n 5 || true
    diff "$d/a.body" "$d/b.body" | head -n 10 || true
    failed=1
  fi
  rm -f "$d"/*
}

if [[ $formats == *chrome* ]]; then
  json_ab "chrome json" "$work/other/trace.json" "$work/this/trace.json"
fi
if [[ $formats == *kineto* ]]; then
  for f in "$work/other/kineto"/*.json; do
    json_ab "kineto $(basename "$f")" "$f" "$work/this/kineto/$(basename "$f")"
  done
  [ "$(ls "$work/other/kineto")" = "$(ls "$work/this/kineto")" ] || { echo "kineto: DIFFERENT file names"; failed=1; }
fi
if [[ $formats == *perfetto* ]]; then
  python3 - "$work/other/trace.pftrace" "$work/this/trace.pftrace" <<'PY' || failed=1
import hashlib, sys, zlib

def varint(b, i):
    r = s = 0
    while True:
        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
        if c < 0x80: return r, i

def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i); f, w = key >> 3, key & 7
        if w == 0: v, i = varint(b, i); yield f, v
        elif w == 1: yield f, b[i:i + 8]; i += 8
        elif w == 5: yield f, b[i:i + 4]; i += 4
        elif w == 2: n, i = varint(b, i); yield f, b[i:i + n]; i += n
        else: raise ValueError("wire type %d" % w)

def packets(trace):
    for f, x in fields(trace):
        inner = [y for g, y in fields(x) if g == 50]  # TracePacket.compressed_packets
        if inner: yield from packets(zlib.decompress(inner[0]))
        else: yield x

def digest(path):
    seqs, order, flat = {}, [], hashlib.sha256()
    for p in packets(open(path, "rb").read()):
        seq = next((v for f, v in fields(p) if f == 10), 0)  # trusted_packet_sequence_id
        if seq not in seqs:
            seqs[seq] = [hashlib.sha256(), 0]
            order.append(seq)
        seqs[seq][0].update(len(p).to_bytes(4, "little") + p)
        seqs[seq][1] += 1
        flat.update(p)
    return {s: (h.hexdigest(), n) for s, (h, n) in seqs.items()}, order, flat.hexdigest()

a, a_order, a_flat = digest(sys.argv[1])
b, b_order, b_flat = digest(sys.argv[2])
packets_a = sum(n for _, n in a.values())
packets_b = sum(n for _, n in b.values())
if a == b:
    print("perfetto: identical sequence by sequence (%d sequences, %d packets); order across sequences %s"
          % (len(a), packets_a, "identical" if a_flat == b_flat else "differs"))
    sys.exit(0)
print("perfetto: DIFFERENT (%d sequences, %d packets against %d, %d packets)" % (len(a), packets_a, len(b), packets_b))
for s in sorted(set(a) | set(b)):
    if a.get(s) != b.get(s):
        print("  first differing sequence:", s, a.get(s), b.get(s))
        break
sys.exit(1)
PY
fi
exit $failed
