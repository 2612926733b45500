"""Turns bench/run.sh's RESULT lines into the comparison table: medians,
ratios to the PCIe floor measured in the same run and to each peer."""
import sys

rates, after, res = None, None, {}
for line in open(sys.argv[1]):
    f = line.split()
    if not f:
        continue
    if f[0] == "PCIE":
        rates = [float(x) * 1e9 for x in f[1:4]]
    elif f[0] == "PCIE_AFTER":
        after = [float(x) * 1e9 for x in f[1:4]]
    elif f[0] == "RESULT" and len(f) >= 7:
        res.setdefault(f[2], {})[f[1]] = (float(f[3]), float(f[4]))

def geometry(name):
    kind, prec, rest = name.split("-", 2)
    batch = 1
    if "-b" in rest:
        rest, b = rest.split("-b")
        batch = int(b)
    n = [int(x) for x in rest.split("x")]
    pts = batch
    for x in n:
        pts *= x
    cpts = pts // n[-1] * (n[-1] // 2 + 1) if kind == "r2c" else pts
    real = 4 if prec == "f32" else 8
    bin_ = pts * real * (1 if kind == "r2c" else 2)
    bout = cpts * 2 * real
    return bin_, bout, batch > 1

def floor_ms(name):
    bin_, bout, batched = geometry(name)
    h2d, d2h, both = rates
    if batched:
        return 1e3 * max(bin_ / h2d, bout / d2h, (bin_ + bout) / both), "batch"
    return 1e3 * (bin_ / h2d + bout / d2h), "single"

peers = ["fftw", "cufftw_own", "cufftw_pinned", "gpufftw_fftw_malloc", "gpufftw_malloc"]
print(f"PCIe (pinned, this run): h2d {rates[0]/1e9:.1f} GB/s, d2h {rates[1]/1e9:.1f} GB/s, both {rates[2]/1e9:.1f} GB/s"
      + (f"; after: {after[0]/1e9:.1f} / {after[1]/1e9:.1f} / {after[2]/1e9:.1f}" if after else ""))
print("floor: batch = max(in/h2d, out/d2h, (in+out)/both); single = in/h2d + out/d2h\n")
print("| problem | floor ms | FFTW all cores | cuFFTW own | cuFFTW pinned | gpufftw fftw_malloc | gpufftw malloc "
      "| gf/floor | FFTW/gf | cuFFTW own/gf | cuFFTW pinned/gf | cuFFTW own/gf malloc |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
def med(p, name):
    v = res.get(name, {}).get(p)
    return v[1] if v else float("nan")
for name in res:
    fl, model = floor_ms(name)
    m = {p: med(p, name) for p in peers}
    gf, gm = m["gpufftw_fftw_malloc"], m["gpufftw_malloc"]
    print(f"| {name} | {fl:.2f} ({model}) | " + " | ".join(f"{m[p]:.2f}" for p in peers)
          + f" | {gf/fl:.2f} | {m['fftw']/gf:.2f} | {m['cufftw_own']/gf:.2f} | {m['cufftw_pinned']/gf:.2f}"
          + f" | {m['cufftw_own']/gm:.2f} |")
if any("baseline_fftw_malloc" in r for r in res.values()):
    # The same problems through another revision's library (bench/baseline.sh),
    # each right after this build's in the same run.
    print("\nthis build against the baseline revision, median ms:")
    print("| problem | fftw_malloc | baseline | this/baseline | malloc | baseline | this/baseline |")
    print("|---|---|---|---|---|---|---|")
    for name in res:
        m = {p: med(p, name) for p in ("gpufftw_fftw_malloc", "baseline_fftw_malloc", "gpufftw_malloc",
                                       "baseline_malloc")}
        print(f"| {name} | {m['gpufftw_fftw_malloc']:.2f} | {m['baseline_fftw_malloc']:.2f} "
              f"| {m['gpufftw_fftw_malloc'] / m['baseline_fftw_malloc']:.2f} | {m['gpufftw_malloc']:.2f} "
              f"| {m['baseline_malloc']:.2f} | {m['gpufftw_malloc'] / m['baseline_malloc']:.2f} |")
print("\nplan ms:")
print("| problem | " + " | ".join(peers) + " |")
print("|---|" + "---|" * len(peers))
for name in res:
    print(f"| {name} | " + " | ".join(f"{res[name].get(p, (float('nan'),))[0]:.0f}" for p in peers) + " |")
