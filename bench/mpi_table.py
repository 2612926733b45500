#!/usr/bin/env python3
"""mpi_table.py BENCH_TXT [FLAGS]: the markdown table of bench/mpi_run.sh's runs.

Reads its LINKS lines (bench/link_rates: "LINKS k gpu h2d d2h h2d_duplex
d2h_duplex", GB/s, the first k GPUs copying at once) and ROW lines ("ROW
label np=N threads=T call=ID RESULT problem [np= threads=] plan_ms
median_ms min_ms reps where ..."; np=0 is gpufftw in one process on every
GPU; ID names the mpi_run.sh call). Per problem, one row per run kind and
rank count: the median over that kind's runs in the latest call that ran
it (the file gathers every call), its n-link floor (each of the n ranks'
slab in and then out over its own link, at the rates the first n links
reach copying at once one way; the slowest rank's), and the ratios against
the floor, against 1 rank, against gpufftw in one process and against the
real FFTW MPI."""
import re
import statistics
import sys


def rows(path):
    for line in open(path):
        f = line.split()
        if not f or f[0] != "ROW" or "RESULT" not in f:
            continue
        at = f.index("RESULT")
        tags = dict(x.split("=", 1) for x in f[2:at] if "=" in x)
        r = f[at + 1:]
        problem, rest = r[0], [x for x in r[1:] if not x.startswith(("np=", "threads="))]
        try:
            plan_ms, median, where = float(rest[0]), float(rest[1]), rest[4]
        except (IndexError, ValueError):
            plan_ms = median = None
            where = "failed"
        yield dict(label=f[1], np=int(tags["np"]), threads=tags.get("threads", "-"), call=tags.get("call", ""),
                   problem=problem, plan=plan_ms, median=median, where=where)


def links(path):
    """{k: {gpu: (h2d, d2h, h2d_duplex, d2h_duplex)}} in GB/s, the last run's."""
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 7 and f[0] == "LINKS":
            out.setdefault(int(f[1]), {})[int(f[2])] = tuple(float(x) for x in f[3:7])
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


def floor_ms(problem, n, rates):
    """The n-link floor in ms, or None where the links of n GPUs were not measured."""
    b = problem_bytes(problem)
    if not b or n not in rates or len(rates[n]) < n:
        return None
    slab = b / n
    return max(slab / (r[0] * 1e9) * 1e3 + slab / (r[1] * 1e9) * 1e3 for r in rates[n].values())


def ratio(a, b):
    return f"{a / b:.2f}x" if a and b else "-"


def main():
    runs = list(rows(sys.argv[1]))
    rates = links(sys.argv[1])
    flags = sys.argv[2] if len(sys.argv) > 2 else "measure"
    for n in sorted(rates):
        print(f"\nlinks (GB/s), the first {n} at once: " + "; ".join(
            f"GPU {g} {r[0]:.1f} in, {r[1]:.1f} out" for g, r in sorted(rates[n].items())))
    fmt = lambda v: "-" if v is None else f"{v:.1f}" if v >= 10 else f"{v:.3f}"
    for problem in dict.fromkeys(r["problem"] for r in runs):
        kinds = {}  # (label, np): the runs of the latest call that ran it
        for r in runs:
            if r["problem"] != problem:
                continue
            key = (r["label"], r["np"])
            if key not in kinds or kinds[key][0]["call"] != r["call"]:
                kinds[key] = []
            kinds[key].append(r)

        def median(key):
            times = [r["median"] for r in kinds.get(key, []) if r["median"]]
            return statistics.median(times) if times else None
        one, serial = median(("gpufftw-composed", 1)), median(("gpufftw-serial", 0))
        reals = [median(key) for key in kinds if key[0] == "real-fftw-mpi" and median(key)]
        real = min(reals) if reals else None
        print(f"\n{problem}, planner flags {flags}, fftw_malloc arrays, out of place, ms per execute\n")
        print("| run | ranks x threads | median ms | each run, ms | n-link floor ms | this / floor | 1 rank / this "
              "| this / one process on every GPU | real FFTW MPI / this | where |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for (label, np), rs in kinds.items():
            t = median((label, np))
            ranks = "1 process" if np == 0 else f"{np} x {rs[-1]['threads']}"
            fl = floor_ms(problem, np if np else max(rates, default=0), rates)
            each = " / ".join(fmt(r["median"]) for r in rs)
            print(f"| {label} | {ranks} | {fmt(t)} | {each} | {fmt(fl)} | {ratio(t, fl)} "
                  f"| {ratio(one, t)} | {ratio(t, serial)} | {ratio(real, t)} | {rs[-1]['where']} |")


if __name__ == "__main__":
    main()
