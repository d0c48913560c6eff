#!/usr/bin/env bash
# The Perfetto and Chrome JSON exports of one capture by this tree and by another build, compared
# after mapping the copy names this tree improved (issue 11: "Memcpy HtoD" became Kineto's
# "Memcpy HtoD (Pinned -> Device)") back to the old ones: anything else that differs is reported.
# Chrome JSON is compared as text; Perfetto packet by packet through a schema-less protobuf dump
# (compressed packet batches unpacked, since their boundaries move when names grow).
# OTHER_VPROF is the other build's launcher (e.g. a worktree of main: OTHER/vprof); CAPTURE a
# .vprof file (vprof demo writes one to ./vprof-demo/capture.vprof).
#   bench/scripts/export-ab.sh OTHER_VPROF CAPTURE
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
other=${1:?usage: export-ab.sh OTHER_VPROF CAPTURE}
capture=${2:?usage: export-ab.sh OTHER_VPROF CAPTURE}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in other this; do
  vprof=$other; [ "$side" = this ] && vprof="$root/vprof"
  "$vprof" export "$capture" -o "$work/$side.pftrace" >/dev/null
  "$vprof" export "$capture" -o "$work/$side.json" >/dev/null
done
python3 - "$work" <<'PY'
import sys, zlib
work = sys.argv[1]
OLD = {"Memcpy %s (%s -> %s)" % k: "Memcpy " + k[0] for k in
       [(c, s, d) for c in ("HtoD", "DtoH", "DtoD", "HtoH", "PtoP") for s in ("Pageable", "Pinned", "Device", "Managed", "Unknown")
        for d in ("Pageable", "Pinned", "Device", "Managed", "Unknown")]}
RENAME = {k.encode(): v.encode() for k, v in OLD.items()} | {v.encode(): v.encode() for v in OLD.values()}

def varint(b, i):
    r = s = 0
    while True:
        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
        if c < 0x80: return r, i

def fields(b):
    out, i = [], 0
    while i < len(b):
        key, i = varint(b, i); f, w = key >> 3, key & 7
        if f == 0: raise ValueError
        if w == 0: v, i = varint(b, i); out.append((f, 'v', v))
        elif w in (1, 5): n = 8 if w == 1 else 4; out.append((f, 'b', b[i:i + n])); i += n
        elif w == 2:
            n, i = varint(b, i)
            if i + n > len(b): raise ValueError
            out.append((f, 'l', b[i:i + n])); i += n
        else: raise ValueError
    return out

def value(b):  # a nested message where the bytes parse as one, else the bytes
    if b in RENAME: return ('s', RENAME[b])
    try: return ('m', [(f, t, value(x) if t == 'l' else x) for f, t, x in fields(b)])
    except (ValueError, IndexError): return ('s', b)

def packets(trace):
    for f, t, x in fields(trace):
        inner = [y for g, u, y in fields(x) if g == 50]  # TracePacket.compressed_packets
        if inner: yield from packets(zlib.decompress(inner[0]))
        else: yield value(x)

def chrome(path):
    text = open(path, encoding="utf-8").read()
    for new, old in OLD.items(): text = text.replace('"%s"' % new, '"%s"' % old)
    return text

failed = False
a, b = chrome(work + "/other.json"), chrome(work + "/this.json")
renamed = sum(open(work + "/this.json", encoding="utf-8").read().count('"%s"' % n) for n in OLD)
print("chrome json: %s (%d copy names mapped back)" % ("identical" if a == b else "DIFFERENT", renamed))
failed |= a != b
pa, pb = list(packets(open(work + "/other.pftrace", "rb").read())), list(packets(open(work + "/this.pftrace", "rb").read()))
same = pa == pb
print("perfetto: %s (%d packets against %d)" % ("identical" if same else "DIFFERENT", len(pa), len(pb)))
if not same:
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y: print("  first difference at packet", i); break
failed |= not same
sys.exit(1 if failed else 0)
PY
