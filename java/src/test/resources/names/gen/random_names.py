#!/usr/bin/env python3
"""Random mangled names for crosscheck.sh, which compares Demangler with c++filt on them.

usage: random_names.py CORPUS.tsv SEED COUNT

Prints, one per line: every prefix of every corpus name (truncated captures), COUNT random
edits of corpus names (damaged captures), and COUNT names built at random from the mangling
grammar, which reach declarator, pack and expression combinations real kernels rarely use.
Most generated names are invalid; the point is that Demangler must then print exactly what
c++filt prints or leave the name unchanged.
"""
import random
import sys

corpus_path, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
R = random.Random(seed)
corpus = [line.split("\t", 1)[0] for line in open(corpus_path, encoding="utf-8") if "\t" in line]


def source_name():
    n = R.choice(["A", "B", "C", "foo", "bar", "vllm", "c10", "at", "native", "cute", "Kern",
                  "_GLOBAL__N_1", "x", "E"])
    return str(len(n)) + n


def substitution():
    k = R.randint(-1, 6)
    return "S_" if k < 0 else "S%d_" % k


def template_param():
    k = R.randint(-1, 3)
    return "T_" if k < 0 else "T%d_" % k


def literal():
    t = R.choice(list("ijlmxybcahstnowefdg") + ["DF16_", "DF32x", "Dh", "Dn", "Du", "Di", "Ds",
                                                "Dd", "u3foo", "N1A1BE", "1E", "S_", "PKc"])
    return "L" + t + ("n" if R.random() < 0.15 else "") + R.choice(["0", "1", "2", "42", "1024"]) + "E"


def unqualified_name():
    r = R.random()
    if r < 0.7:
        return source_name()
    if r < 0.8:
        return "L" + source_name() + R.choice(["", "_0", "__12_"])
    if r < 0.9:
        return source_name() + "B5cxx11"
    return R.choice(["pl", "cl", "ix", "eq", "nw", "dl", "cvi", "aS"])


def expression(d):
    r = R.random()
    if d > 2 or r < 0.3:
        return literal()
    if r < 0.45:
        return template_param()
    if r < 0.55:
        return "fp_"
    if r < 0.7:
        return R.choice(["pl", "mi", "ml", "dv", "gt", "lt", "eq", "aa", "rs", "ls", "an", "or"]) \
            + expression(d + 1) + expression(d + 1)
    if r < 0.8:
        return R.choice(["ng", "nt", "co", "ad", "de"]) + expression(d + 1)
    if r < 0.85:
        return "st" + type_(d + 1)
    if r < 0.9:
        return "sz" + expression(d + 1)
    if r < 0.93:
        return "qu" + expression(d + 1) + expression(d + 1) + expression(d + 1)
    if r < 0.95:
        return "cv" + type_(d + 1) + expression(d + 1)
    if r < 0.965:
        callee = R.choice([source_name(), "fp_", source_name() + template_args(d + 1),
                           "L_Z" + source_name() + "vE"])
        return "cl" + callee + "".join(expression(d + 1) for _ in range(R.randint(0, 2))) + "E"
    if r < 0.98:
        return R.choice(["dt", "pt"]) + expression(d + 1) + source_name()
    if r < 0.99:
        scope = R.choice([type_(d + 1), template_param(), "N" + template_param() + source_name() + "E",
                          "N" + source_name() + template_args(d + 1) + "E", substitution(),
                          "St" + source_name(), source_name(), "Dtfp_E"])
        member = R.choice([source_name(), "2at", "2pl", unqualified_name()])
        return "sr" + scope + member + (template_args(d + 1) if R.random() < 0.3 else "")
    if r < 0.995:
        return "sp" + expression(d + 1)
    return source_name()


def template_args(d):
    n = R.randint(0 if R.random() < 0.1 else 1, 3)
    return "I" + "".join(template_arg(d + 1) for _ in range(n)) + "E"


def template_arg(d):
    r = R.random()
    if r < 0.55:
        return type_(d)
    if r < 0.75:
        return literal()
    if r < 0.85:
        return "X" + expression(d) + "E"
    if r < 0.92:
        return "J" + "".join(type_(d + 1) for _ in range(R.randint(0, 3))) + "E"
    return "XadL_Z" + encoding(d + 1, top=False) + "EE"


def name(d):
    r = R.random()
    if r < 0.4:
        return source_name() + (template_args(d) if R.random() < 0.3 and d < 4 else "")
    if r < 0.85:
        parts = "".join(source_name() + (template_args(d) if R.random() < 0.25 and d < 4 else "")
                        for _ in range(R.randint(1, 3)))
        if R.random() < 0.15:
            parts = substitution() + parts
        if R.random() < 0.1:
            parts += "UlvE_"
        if R.random() < 0.1:
            parts += "Ut_"
        return "N" + parts + "E"
    if d < 3:
        entity = R.choice([source_name(), source_name() + "_1", "s", "s_0", "d_" + source_name(),
                           "UlvE_", "Ul" + type_(d + 1) + "E0_", "N" + source_name() + source_name() + "E",
                           "NK" + source_name() + unqualified_name() + "E"])
        return "Z" + encoding(d + 1, top=False) + "E" + entity
    return source_name()


def type_(d):
    r = R.random()
    if d > 5:
        return R.choice("ifvcdb")
    if r < 0.25:
        if R.random() < 0.95:
            return R.choice("vbcahstijlmxynofdegwz")
        return R.choice(["Dn", "Dh", "DF16_", "Di", "Ds", "Du", "Da"])
    if r < 0.45:
        return name(d)
    if r < 0.6:
        return R.choice("PRO") + type_(d + 1)
    if r < 0.66:
        return R.choice(["K", "V", "VK", "r", "rK"]) + type_(d + 1)
    if r < 0.72:
        return template_param()
    if r < 0.77:
        return substitution()
    if r < 0.82:
        params = "".join(type_(d + 1) for _ in range(R.randint(1, 2)))
        return R.choice(["", "K", "VK"]) + "F" + type_(d + 1) + params + R.choice(["", "", "R", "O"]) + "E"
    if r < 0.86:
        return "A" + R.choice(["3", "", "10"]) + "_" + type_(d + 1)
    if r < 0.9:
        return "M" + name(d + 1) + type_(d + 1)
    if r < 0.93:
        return "Dv4_" + R.choice("fi")
    if r < 0.96:
        return "Dp" + R.choice(["T_", "T0_", "P" + template_param(), "R" + template_param(),
                                "O" + template_param()])
    if r < 0.98:
        return R.choice(["Dt", "DT"]) + expression(d + 1) + "E"
    return R.choice(["Sa", "Ss", "St3foo", "St6vectorIiSaIiEE", "Sd", "SaIcE"])


def params(d):
    return "".join(type_(d + 1) for _ in range(R.randint(1, 3)))


def encoding(d, top=True):
    r = R.random()
    if r < 0.3:
        return source_name() + template_args(d) + type_(d + 1) + params(d)
    if r < 0.6:
        n = "N" + R.choice(["", "K", "VK", "R", "KO"]) + "".join(source_name() for _ in range(R.randint(1, 3)))
        if R.random() < 0.5:
            return n + template_args(d) + "E" + type_(d + 1) + params(d)
        if R.random() < 0.3:
            n += R.choice(["C1", "C2", "D0", "D1", "cvi", "pl", "cl", "C1B5cxx11", unqualified_name()])
        return n + "E" + params(d)
    if r < 0.8:
        return name(d) + params(d)
    if r < 0.85 and top:
        return R.choice(["TV", "TI", "TS", "TT"]) + type_(d + 1)
    if r < 0.88 and top:
        return R.choice(["Th8_", "Thn16_", "Tv0_n24_", "GV", "Tch8_h16_"]) + encoding(d + 1, False)
    return source_name() + params(d)


FRAGMENTS = ["S_", "S0_", "S1_", "T_", "T0_", "E", "I", "J", "N", "Z", "K", "P", "R", "O", "L", "X",
             "Dp", "Dv4_", "A3_", "M", "F", "v", "i", "Li1E", "Lb0E", "Ul", "Ut_", "UlvE_", "_", "0",
             "1", "Sa", "St", "Ss", "B5cxx11", "C1", "D1", "cl", "ad", "plT_Li1E", "fp_", "DT", "Do"]
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"


def mutate(n):
    for _ in range(R.randint(1, 3)):
        i = R.randint(2, max(2, len(n)))
        op = R.randint(0, 5)
        if op == 0:
            n = n[:i] + n[i + 1:]
        elif op == 1:
            n = n[:i] + R.choice(ALPHABET) + n[i:]
        elif op == 2:
            n = n[:i] + R.choice(ALPHABET) + n[i + 1:]
        elif op == 3:
            n = n[:i] + R.choice(FRAGMENTS) + n[i:]
        elif op == 4:
            j = R.randint(2, max(2, len(n)))
            n = n[:min(i, j)] + n[max(i, j):]
        else:
            m = R.choice(corpus)
            j = R.randint(2, len(m))
            n = n[:i] + m[j:j + R.randint(1, 12)] + n[i:]
    return n


out = set()
for n in corpus:
    for k in range(2, len(n)):
        out.add(n[:k])
for _ in range(count):
    out.add(mutate(R.choice(corpus)))
for _ in range(count):
    suffix = R.choice([".isra.0", ".constprop.1.isra.0", ".cold", ".part.2"]) if R.random() < 0.05 else ""
    out.add("_Z" + encoding(0) + suffix)
print("\n".join(sorted(out)))
