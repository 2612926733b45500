#!/usr/bin/env python3
"""mpi_table.py BENCH_TXT [FLAGS]: the markdown table of bench/mpi_run.sh's runs.

Reads its ROW lines ("ROW label np=N threads=T RESULT problem [np= threads=]
plan_ms median_ms min_ms reps where ..."; np=0 is gpufftw serial in one
process) and prints, per problem, one row per run with its median and the
ratios against the real FFTW MPI on 1 rank and against gpufftw serial."""
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
            plan_ms, median, minimum, where = float(rest[0]), float(rest[1]), float(rest[2]), rest[4]
        except (IndexError, ValueError):
            plan_ms = median = minimum = None
            where = "failed"
        yield dict(label=label, np=int(np), threads=threads, problem=problem, plan=plan_ms, median=median,
                   min=minimum, where=where)


def ratio(a, b):
    return f"{a / b:.2f}x" if a and b else "-"


def main():
    runs = list(rows(sys.argv[1]))
    flags = sys.argv[2] if len(sys.argv) > 2 else "measure"
    for problem in dict.fromkeys(r["problem"] for r in runs):
        mine = [r for r in runs if r["problem"] == problem]
        # The latest run of each kind counts (the file gathers every call).
        latest = {}
        for r in mine:
            latest[(r["label"], r["np"])] = r
        base = latest.get(("real-fftw-mpi", 1), {}).get("median")
        serial = latest.get(("gpufftw-serial", 0), {}).get("median")
        print(f"\n{problem}, planner flags {flags}, fftw_malloc arrays, out of place, ms per execute\n")
        print("| run | ranks x threads | plan ms | median ms | min ms | where | real FFTW MPI 1 rank / this | this / gpufftw serial |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for (label, np), r in latest.items():
            ranks = "1 process" if np == 0 else f"{np} x {r['threads']}"
            fmt = lambda v: "-" if v is None else f"{v:.1f}" if v >= 10 else f"{v:.3f}"
            print(f"| {label} | {ranks} | {fmt(r['plan'])} | {fmt(r['median'])} | {fmt(r['min'])} | {r['where']} "
                  f"| {ratio(base, r['median'])} | {ratio(r['median'], serial)} |")


if __name__ == "__main__":
    main()
