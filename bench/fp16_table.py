#!/usr/bin/env python3
"""fp16_table.py OUT: the tables of bench/fp16_run.sh from the files it
wrote in OUT, in Markdown: the rates, device data against cuFFT's FP16 and
FP32, host arrays against gpufftw's fp32 with the model's bound, the same
over several GPUs against one GPU's (rows "ALLOC@N", where the run had
more than one), an execute on device arrays against cuFFT's step by step
(execute_cost), and the comparison mode's errors. Ratios are times of the
peer over gpufftw's fp16 (above 1: fp16 faster)."""
import json
import os
import re
import sys

out = sys.argv[1]


def lines(name):
    path = os.path.join(out, name)
    return open(path).read().splitlines() if os.path.exists(path) else []


# 1. Rates.
convert = device = None
for l in lines("fp16_staging.txt"):
    m = re.match(r"RATES host_convert_GBps ([\d.]+) device_copy_GBps ([\d.]+)", l)
    if m:
        convert, device = float(m.group(1)), float(m.group(2))
print("## Rates\n")
print("host F16C conversion on the staging threads: %s GB/s of floats; device copy: %s GB/s read + written\n"
      % (convert, device))

# The staging alone at the library's slot size (half_staging_bench's rows
# marked *): GB/s of the float array, by (memory, direction).
staged = {}
for l in lines("fp16_staging.txt"):
    m = re.match(r"RESULT (\w+) (to_device|to_host) \d+ [\d.]+ [\d.]+ [\d.]+ ([\d.]+) [\d.]+\*$", l)
    if m:
        staged[(m.group(1), m.group(2))] = float(m.group(3))
if staged:
    print("the staging of halves alone (half_staging_bench, the library's slots), GB/s of floats: "
          + "; ".join("%s %s %.1f" % (mem, d, r) for (mem, d), r in sorted(staged.items())) + "\n")

# 2. The kernels on half data: cuFFT's times by problem ("n=256 batch=65536").
cufft = {}
for l in lines("fp16_kernels.txt"):
    if not l.startswith("RESULT "):
        continue
    f = dict(kv.split("=", 1) for kv in l.split()[2:] if "=" in kv)
    synced = [float(f[k]) if k in f else None for k in ("cufft16_floats_synced_ms", "cufft32_synced_ms")]
    cufft[(f["n"], f["batch"])] = (float(f["cufft16_ms"]), float(f["cufft32_ms"]), float(f["ours_ms"]), *synced)

# 3. fft_bench: RESULT alloc precision problem plan_ms median_ms min_ms reps where inner | why
runs = {}
for l in lines("fp16_results.txt"):
    parts = l.split()
    if len(parts) < 6 or parts[0] != "RESULT" or parts[3] == "NULL-plan":
        continue
    alloc, prec, problem, median = parts[1], parts[2], parts[3], float(parts[5])
    why = l.split("| ", 1)[1] if "| " in l else ""
    m = re.search(r"fp16: ([^,;]+)", why)
    runs[(alloc, prec, problem)] = (median, m.group(1) if m else "", "; on GPUs " in why)


def shape(problem):
    """('c2c', [n...], batch) from c2c-f32-4096x4096-b2."""
    kind, _, dims, *rest = problem.split("-")
    batch = int(rest[0][1:]) if rest else 1
    return kind, [int(d) for d in dims.split("x")], batch


def float_bytes_each_way(problem):
    """The bytes of floats in and out: (in, out)."""
    kind, n, batch = shape(problem)
    points = batch
    for d in n:
        points *= d
    if kind == "c2c":
        return 8.0 * points, 8.0 * points
    half = points // n[-1] * (n[-1] // 2 + 1)
    return 4.0 * points, 8.0 * half


def float_bytes(problem):
    return sum(float_bytes_each_way(problem))


def fmt(v, spec="%.3f"):
    return spec % v if v is not None else "-"


print("## Device data (fft_bench --alloc device, FFTW_MEASURE)\n")
print("cuFFT's first two columns: fp16_bench on half data already on the device (no conversion from floats), "
      "timed by CUDA events. Its synced columns: cuFFT as an FFTW program's execute on device float arrays would "
      "have it, by the host's clock around calls that return with the result, as fft_bench times gpufftw: FP32 on "
      "the floats, FP16 on halves converted from them and back on the device.\n")
print("| problem | gpufftw fp32 ms | gpufftw fp16 ms | fp16 way | cuFFT FP16 ms | cuFFT FP32 ms "
      "| vs faster cuFFT | vs cuFFT FP16 | vs gpufftw fp32 | cuFFT FP16 on floats, synced ms "
      "| cuFFT FP32, synced ms | vs faster cuFFT, synced |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for (alloc, prec, problem), (t16, way, _) in runs.items():
    if alloc != "device" or prec != "fp16":
        continue
    t32 = runs.get((alloc, "fp32", problem), (None, ""))[0]
    kind, n, batch = shape(problem)
    c = cufft.get(("x".join(map(str, n)), str(batch))) if kind == "c2c" else None
    best = min(c[0], c[1]) if c else None
    synced = [v for v in (c[3:] if c else ()) if v is not None]
    best_synced = min(synced) if len(synced) == 2 else None
    print("| %s | %s | %.3f | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        problem, fmt(t32), t16, way, fmt(c and c[0]), fmt(c and c[1]),
        fmt(best and best / t16, "%.2f"), fmt(c and c[0] / t16, "%.2f"), fmt(t32 and t32 / t16, "%.2f"),
        fmt(c and c[3]), fmt(c and c[4]), fmt(best_synced and best_synced / t16, "%.2f")))

print("\n## Host arrays end to end (FFTW_MEASURE)\n")
print("bounds, at most 2: the model's for the halves, fp32 ms / (float bytes in and out / the host's conversion "
      "rate); and the same by the staging's own rates in this run (float bytes in / its rate to the device + out / "
      "its rate to the host; pageable for malloc, pinned for fftw_malloc). A row meets its target where fp32/fp16 "
      "reaches the target or the larger bound, whichever is lower.\n")
print("| problem | alloc | fp32 ms | fp16 ms | fp32/fp16 | target | model's bound | staging's bound | met | fp16 way |")
print("|---|---|---|---|---|---|---|---|---|---|")
for (alloc, prec, problem), (t16, way, _) in runs.items():
    if alloc == "device" or "@" in alloc or prec != "fp16":
        continue
    t32 = runs.get((alloc, "fp32", problem), (None, ""))[0]
    target = 1.5 if alloc == "malloc" else 1.3
    bound = by_staging = None
    if convert and t32:
        bound = min(2.0, t32 / (float_bytes(problem) / (convert * 1e9) * 1e3))
    memory = "pageable" if alloc == "malloc" else "pinned"
    if t32 and (memory, "to_device") in staged and (memory, "to_host") in staged:
        b_in, b_out = float_bytes_each_way(problem)
        ms = (b_in / staged[(memory, "to_device")] + b_out / staged[(memory, "to_host")]) / 1e6
        by_staging = min(2.0, t32 / ms)
    bounds = [b for b in (bound, by_staging) if b is not None]
    need = min([target] + ([max(bounds)] if bounds else []))
    met = "-" if not t32 else ("yes" if t32 / t16 >= need else "no")
    print("| %s | %s | %s | %.3f | %s | %.1f | %s | %s | %s | %s |" % (
        problem, alloc, fmt(t32), t16, fmt(t32 and t32 / t16, "%.2f"), target, fmt(bound, "%.2f"),
        fmt(by_staging, "%.2f"), met, way))

set_rows = [(alloc, problem, t16, way, split) for (alloc, prec, problem), (t16, way, split) in runs.items()
            if "@" in alloc and prec == "fp16"]
if set_rows:
    print("\n## Several GPUs (host arrays, FFTW_MEASURE, GPUFFTW_DEVICES=all against 0)\n")
    print("fp16 on N GPUs against fp16 on one GPU and against fp32 on the same N; split: the plan's why says it "
          "runs on the GPUs (\"; on GPUs \"), else on one of them.\n")
    print("| problem | alloc | GPUs | fp16 1 GPU ms | fp16 ms | vs fp16 on 1 GPU | fp32 ms | vs fp32 | fp16 way | split |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for alloc, problem, t16, way, split in set_rows:
        base, gpus = alloc.split("@")
        one = runs.get((base, "fp16", problem), (None,))[0]
        t32 = runs.get((alloc, "fp32", problem), (None,))[0]
        print("| %s | %s | %s | %s | %.3f | %s | %s | %s | %s | %s |" % (
            problem, base, gpus, fmt(one), t16, fmt(one and one / t16, "%.2f"), fmt(t32),
            fmt(t32 and t32 / t16, "%.2f"), way, "yes" if split else "no"))

# 4. Where an execute on device arrays spends its time (execute_cost,
# gpufftw preloaded): each variant's median and the peer's time over it.
cost = {}
variants = []
for l in lines("fp16_execute.txt"):
    m = re.match(r"RESULT (\S+) (\S+) ([\d.]+) ([\d.]+)", l)
    if m:
        cost.setdefault(m.group(1), {})[m.group(2)] = (float(m.group(3)), float(m.group(4)))
        if m.group(2) not in variants:
            variants.append(m.group(2))
if cost:
    print("\n## An execute on device arrays against cuFFT's (execute_cost, gpufftw preloaded)\n")
    print("µs a call, the host's clock around call and synchronise; in brackets the peer's time over the "
          "variant's (peer: cuFFT on the default stream; gpufftw: fftwf_execute on the same arrays)\n")
    print("| problem | " + " | ".join(variants) + " |")
    print("|---|" + "---|" * len(variants))
    for problem, row in cost.items():
        print("| %s | %s |" % (problem, " | ".join(
            "%.2f (%.2f)" % row[v] if v in row else "-" for v in variants)))

print("\n## Accuracy (GPUFFTW_COMPARE=1, malloc arrays, every plan fp16)\n")
print("| way asked | problem | computed in half | gpufftw rel. L2 | tolerance | over |")
print("|---|---|---|---|---|---|")
for l in lines("fp16_compare.jsonl"):
    try:
        r = json.loads(l)
    except ValueError:
        continue
    # An error that is no number (inf, NaN) is null in the file: "-".
    print("| %s | %s | %s | %s | %s | %s |" % (r["way"], r["problem"], r["half"], fmt(r["gpufftw_rel_l2"], "%.2e"),
                                            fmt(r["tolerance"], "%.2e"), r["over"]))
