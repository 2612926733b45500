"""Turns bench/never_slower.sh's RESULT lines into its table: for each
planner flag and kind of array, each point's median with one GPU
(GPUFFTW_DEVICES=0) and with every GPU, in the same run, the set's time over
one GPU's, and where the set's plan ran; then the worst ratio of each.
Where the run measured a baseline revision beside this build (labels
ending in -baseline), a second table: each point's median over the
baseline's with the same flags, arrays and devices, and per flag and
device count the median and the worst of those ratios."""
import re
import sys

runs = {}  # (flags, alloc) -> {devices: {problem: (median, placement)}}
base = {}  # the baseline revision's, the same keys
order = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 3 or f[0] != "RESULT":
        continue
    flags, alloc, devices, *revision = f[1].split("-")
    problem = f[2]
    if problem not in order:
        order.append(problem)
    if f[3] == "NULL-plan":
        continue
    why = line.split("|", 1)[1].strip() if "|" in line else ""
    # Where it ran: "cpu", or the GPU report's "on GPU..." clause.
    m = re.search(r"on GPUs? [^;:(]*(: [^;]*)?", why)
    where = f[7] if f[7] != "gpu" else (m.group(0) if m else "gpu")
    into = base if revision else runs
    into.setdefault((flags, alloc), {}).setdefault(devices, {})[problem] = (float(f[4]), where)

worst = {}
for (flags, alloc), by in runs.items():
    print(f"\n{flags}, {alloc} arrays: median ms")
    print("| problem | one GPU | every GPU | every/one | where, one GPU | where, every GPU |")
    print("| --- | --- | --- | --- | --- | --- |")
    for p in order:
        one, all_ = by.get("0", {}).get(p), by.get("all", {}).get(p)
        if not one or not all_:
            print(f"| {p} | {one[0] if one else 'missing'} | {all_[0] if all_ else 'missing'} | - | - | - |")
            continue
        r = all_[0] / one[0]
        w = worst.get(flags)
        if not w or r > w[0]:
            worst[flags] = (r, p, alloc)
        print(f"| {p} | {one[0]:.3f} | {all_[0]:.3f} | {r:.2f} | {one[1]} | {all_[1]} |")
print()
for flags, (r, p, alloc) in worst.items():
    print(f"worst, {flags}: every GPU {r:.2f}x one GPU's time ({p}, {alloc})")

if base:
    print("\nthis build against the baseline revision (GPUFFTW_BENCH_BASELINE), median ms")
    ratios = {}  # (flags, devices) -> [this / baseline]
    for (flags, alloc), by in runs.items():
        print(f"\n{flags}, {alloc} arrays")
        print("| problem | one GPU | baseline | this/baseline | every GPU | baseline | this/baseline |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for p in order:
            cells = []
            for devices in ("0", "all"):
                mine = by.get(devices, {}).get(p)
                theirs = base.get((flags, alloc), {}).get(devices, {}).get(p)
                if not mine or not theirs:
                    cells += [f"{mine[0]:.3f}" if mine else "missing", f"{theirs[0]:.3f}" if theirs else "missing", "-"]
                    continue
                r = mine[0] / theirs[0]
                ratios.setdefault((flags, devices), []).append((r, p, alloc))
                cells += [f"{mine[0]:.3f}", f"{theirs[0]:.3f}", f"{r:.2f}"]
            print(f"| {p} | " + " | ".join(cells) + " |")
    print()
    for (flags, devices), rs in ratios.items():
        values = sorted(r for r, _, _ in rs)
        mid = len(values) // 2
        median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
        r, p, alloc = max(rs)
        who = "one GPU" if devices == "0" else "every GPU"
        print(f"this / baseline, {flags}, {who}: median {median:.2f}, worst {r:.2f} ({p}, {alloc})")
