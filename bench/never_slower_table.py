"""Turns bench/never_slower.sh's RESULT lines into its table: for each
planner flag and kind of array, each point's median with one GPU
(GPUFFTW_DEVICES=0) and with every GPU, in the same run, the set's time over
one GPU's, and where the set's plan ran; then the worst ratio of each."""
import re
import sys

runs = {}  # (flags, alloc) -> {devices: {problem: (median, placement)}}
order = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 3 or f[0] != "RESULT":
        continue
    flags, alloc, devices = f[1].split("-")
    problem = f[2]
    if problem not in order:
        order.append(problem)
    if f[3] == "NULL-plan":
        continue
    why = line.split("|", 1)[1].strip() if "|" in line else ""
    # Where it ran: "cpu", or the GPU report's "on GPU..." clause.
    m = re.search(r"on GPUs? [^;:(]*(: [^;]*)?", why)
    where = f[7] if f[7] != "gpu" else (m.group(0) if m else "gpu")
    runs.setdefault((flags, alloc), {}).setdefault(devices, {})[problem] = (float(f[4]), where)

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
