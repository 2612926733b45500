#!/usr/bin/env python3
"""Writes the hand-made seeds of tests/fuzz/corpus (planner_fuzz.cc's
decode() reads them): each kind in both precisions, ranks 0-3 with loops,
in place, and the inputs that found bugs (kept as regressions)."""
import os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "corpus")
os.makedirs(out, exist_ok=True)

def n(v):  # a small size 1..24
    return bytes([0, v - 1])

def seed(name, f64, kind, rank_byte, hrank_byte, ns, hns, place=0, sign=b"\0", kinds=b"\0" * 8, flags=0, strides=None):
    b = bytes([(kind << 1) | f64, rank_byte, hrank_byte])
    for x in ns: b += x
    for x in hns: b += x
    # strides: natural, os the same, for every dim and loop
    b += strides if strides is not None else b"\0\0" * (len(ns) + len(hns))
    b += bytes([place]) + sign + kinds + bytes([flags])
    with open(os.path.join(out, "seed-" + name), "wb") as f:
        f.write(b)

kinds = ["c2c", "split-c2c", "r2c", "split-r2c", "c2r", "split-c2r", "r2r"]
for f64 in (0, 1):
    p = "f64" if f64 else "f32"
    for k, kn in enumerate(kinds):
        seed(f"{p}-{kn}-1d", f64, k, 1, 0, [n(8)], [])
        seed(f"{p}-{kn}-2d-loop", f64, k, 2, 1, [n(6), n(5)], [n(3)])
        seed(f"{p}-{kn}-3d-inplace", f64, k, 3, 0, [n(4), n(3), n(6)], [], place=1)
        seed(f"{p}-{kn}-0d-loops", f64, k, 0, 2, [], [n(3), n(4)])
        seed(f"{p}-{kn}-1d-measure", f64, k, 1, 1, [n(12)], [n(2)], flags=1)
    seed(f"{p}-r2r-kinds", f64, 6, 3, 0, [n(5), n(6), n(7)], [], kinds=bytes([3, 7, 10, 0, 0, 0, 0, 0]))
# Regressions: what the real FFTW plans from non-values (api_contract_test.cc).
seed("regress-sign-7", 1, 0, 1, 0, [n(8)], [], sign=bytes([230]) + struct.pack("<I", 7))
seed("regress-r2r-kind-42", 1, 6, 1, 0, [n(8)], [], kinds=bytes([242] + [0] * 7))
seed("regress-howmany-rank-intmax", 1, 0, 1, 235, [n(8)], [])
seed("regress-rank-intmax", 0, 0, 228, 0, [], [])
seed("regress-split-half-in-place", 1, 1, 1, 0, [n(8)], [], place=2)
