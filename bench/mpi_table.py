#!/usr/bin/env python3
"""mpi_table.py BENCH_TXT [FLAGS]: the markdown table of bench/mpi_run.sh's runs.

Reads its LINK lines (bench/link_rates: "LINK gpu h2d_alone d2h_alone h2d_all
d2h_all ...", GB/s) and ROW lines ("ROW label np=N threads=T RESULT problem
[np= threads=] plan_ms median_ms min_ms reps where ..."; np=0 is gpufftw in
one process on every GPU). Per problem, one row per run: its median, the
floor (each rank's slab in and out over its own link at the rate every link
reaches when all copy at once; one rank: its link alone), and the ratios
against the floor, against 1 rank, against gpufftw in one process and
against the real FFTW MPI."""
import re
import sys


def rows(path):
    for line in open(path):
        f = line.split()
        if not f or f[0] != "ROW" or "RESULT" not in f:
            continue
        label, np, threads = f[1], f[2].split("=")[1], f[3].split("=")[1]
        r = f[f.index("RESULT") + 1:]
        problem, rest = r[0], [x for x in r[1:] if not x.startswith(("np=", "threads="))]
        try:
            plan_ms, median, where = float(rest[0]), float(rest[1]), rest[4]
        except (IndexError, ValueError):
            plan_ms = median = None
            where = "failed"
        yield dict(label=label, np=int(np), threads=threads, problem=problem, plan=plan_ms, median=median,
                   where=where)


def links(path):
    """{gpu: (h2d_alone, d2h_alone, h2d_all, d2h_all)} in GB/s, the last run's."""
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 6 and f[0] == "LINK":
            out[int(f[1])] = tuple(float(x) for x in f[2:6])
    return out


def problem_bytes(problem):
    """Bytes of one side (input or output; an r2c's padded real side is as big)."""
    m = re.match(r"(c2c|r2c)-f(32|64)-([0-9x]+)$", problem)
    if not m:
        return None
    n = [int(x) for x in m.group(3).split("x")]
    if m.group(1) == "r2c":
        n[-1] = n[-1] // 2 + 1
    count = 1
    for x in n:
        count *= x
    return count * 2 * int(m.group(2)) // 8


def floor_ms(problem, np, rates):
    b = problem_bytes(problem)
    if not b or not rates:
        return None
    if np <= 1:
        h2d, d2h = rates[min(rates)][0], rates[min(rates)][1]
        return b / (h2d * 1e9) * 1e3 + b / (d2h * 1e9) * 1e3
    slab = b / np
    return max(slab / (r[2] * 1e9) * 1e3 + slab / (r[3] * 1e9) * 1e3 for g, r in rates.items() if g < np)


def ratio(a, b):
    return f"{a / b:.2f}x" if a and b else "-"


def main():
    runs = list(rows(sys.argv[1]))
    rates = links(sys.argv[1])
    flags = sys.argv[2] if len(sys.argv) > 2 else "measure"
    if rates:
        print("\nlinks (GB/s): " + "; ".join(
            f"GPU {g} alone {r[0]:.1f} in, {r[1]:.1f} out; all at once {r[2]:.1f} in, {r[3]:.1f} out"
            for g, r in sorted(rates.items())))
    for problem in dict.fromkeys(r["problem"] for r in runs):
        latest = {}  # the latest run of each kind counts (the file gathers every call)
        for r in runs:
            if r["problem"] == problem:
                latest[(r["label"], r["np"])] = r
        one = latest.get(("gpufftw-composed", 1), {}).get("median")
        serial = latest.get(("gpufftw-serial", 0), {}).get("median")
        reals = [r["median"] for (label, _), r in latest.items() if label == "real-fftw-mpi" and r["median"]]
        real = min(reals) if reals else None
        print(f"\n{problem}, planner flags {flags}, fftw_malloc arrays, out of place, ms per execute\n")
        print("| run | ranks x threads | median ms | floor ms | this / floor | 1 rank / this "
              "| this / one process on every GPU | real FFTW MPI / this | where |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        fmt = lambda v: "-" if v is None else f"{v:.1f}" if v >= 10 else f"{v:.3f}"
        for (label, np), r in latest.items():
            ranks = "1 process" if np == 0 else f"{np} x {r['threads']}"
            fl = floor_ms(problem, np if np else len(rates), rates)
            print(f"| {label} | {ranks} | {fmt(r['median'])} | {fmt(fl)} | {ratio(r['median'], fl)} "
                  f"| {ratio(one, r['median'])} | {ratio(r['median'], serial)} | {ratio(real, r['median'])} "
                  f"| {r['where']} |")


if __name__ == "__main__":
    main()
