#!/usr/bin/env python3
"""multi_gpu_table.py RESULTS: the multi-GPU benchmark's table
(bench/multi_gpu_run.sh), every row over its own floor, measured in the
same run.

RESULTS holds the floors for the first k GPUs at once:
  LINKS k gpu h2d d2h h2d_duplex d2h_duplex   (bench/link_rates, GB/s)
  HOSTCOPY k gpu fill drain                   (bench/host_copy_rates, GB/s)
  STAGED k gpu piece_MiB in out               (the same, through the whole staging)
  NCCL k bytes_per_gpu ms GBps | NCCL none WHY (bench/nccl_rates)
cufftXt's times (RESULT cufftxt problem median_ms ...) and fft_bench's
(RESULT LABEL problem plan_ms median_ms ...), LABEL one of K:ALLOC:ROUND
(gpufftw on the first K GPUs, ALLOC fftw_malloc or malloc),
baseline_before:ROUND, baseline_after:ROUND (another revision on every GPU,
fftw_malloc) and cpu_plan:K:ROUND (a problem gpufftw keeps on the CPU).

A row's time is the median of its rounds' medians. Its floor is the
slowest of its K GPUs' time for that GPU's share of the bytes:
- links: a single transform moves its input in, then its output out: in
  over the rate with the K links busy one way, plus out likewise; a batch
  streams in and out at once: the larger of in and out over each way's
  rate with the K links busy both ways;
- host copy (malloc arrays): every byte also passes through gpufftw's copy
  threads, one GPU's copies one at a time: in over the fill rate plus out
  over the drain rate, with the K GPUs' threads copying at once.
A fftw_malloc row's floor is its links'; a malloc row's the larger of the
two, and the table says which binds. Where a row's floor on K GPUs is
above what one GPU took, no split can pay, and the row says so.
"""
import re
import statistics
import sys


def problem_bytes(p):
    """(input bytes, output bytes) of a problem name, or None."""
    m = re.match(r'(c2c|r2c)-(f32|f64)-([0-9x]+)(?:-b(\d+))?$', p)
    if not m:
        return None
    kind, prec, dims, batch = m.group(1), m.group(2), [int(x) for x in m.group(3).split('x')], int(m.group(4) or 1)
    real = 4 if prec == 'f32' else 8
    n = 1
    for d in dims:
        n *= d
    if kind == 'c2c':
        return n * 2 * real * batch, n * 2 * real * batch
    cplx = n // dims[-1] * (dims[-1] // 2 + 1)
    return n * real * batch, cplx * 2 * real * batch


def is_batch(p):
    return '-b' in p


def link_floor(links, k, p):
    """Seconds of the links' floor of problem p on the first k GPUs, or None."""
    b = problem_bytes(p)
    rates = links.get(k)
    if not b or not rates or len(rates) < k:
        return None
    bi, bo = b[0] / k, b[1] / k
    if is_batch(p):
        return max(max(bi / (r[2] * 1e9), bo / (r[3] * 1e9)) for r in rates.values())
    return max(bi / (r[0] * 1e9) + bo / (r[1] * 1e9) for r in rates.values())


def copy_floor(copies, k, p):
    """Seconds of the host-copy floor of problem p (pageable arrays) on the first k GPUs, or None."""
    b = problem_bytes(p)
    rates = copies.get(k)
    if not b or not rates or len(rates) < k:
        return None
    return max(b[0] / k / (r[0] * 1e9) + b[1] / k / (r[1] * 1e9) for r in rates.values())


def read(path):
    links, copies, staged, nccl, xt, runs, nccl_none = {}, {}, {}, {}, {}, {}, []
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == 'LINKS' and len(f) >= 7:
            links.setdefault(int(f[1]), {})[int(f[2])] = tuple(float(x) for x in f[3:7])
        elif f[0] == 'HOSTCOPY' and len(f) >= 5:
            copies.setdefault(int(f[1]), {})[int(f[2])] = (float(f[3]), float(f[4]))
        elif f[0] == 'STAGED' and len(f) >= 6:
            staged.setdefault((int(f[1]), int(f[3])), {})[int(f[2])] = (float(f[4]), float(f[5]))
        elif f[0] == 'NCCL' and len(f) >= 2 and f[1] == 'none':
            nccl_none.append(' '.join(f[2:]))
        elif f[0] == 'NCCL' and len(f) >= 5:
            nccl[int(f[1])] = (int(f[2]), float(f[3]), float(f[4]))
        elif f[0] == 'RESULT' and len(f) > 3 and f[1] == 'cufftxt':
            if f[3] != 'FAILED':
                xt[f[2]] = float(f[3])
        elif f[0] == 'RESULT' and len(f) > 4 and f[3] != 'NULL-plan':
            runs.setdefault(f[2], {}).setdefault(f[1].rsplit(':', 1)[0], []).append(float(f[4]))
    return links, copies, staged, nccl, nccl_none, xt, runs


def ms(x):
    return f'{x:.2f}' if x else '-'


def ratio(a, b):
    return f'{a / b:.2f}x' if a and b else '-'


def spread(times):
    return ' / '.join(f'{t:.2f}' for t in times) if times else '-'


def main(path):
    links, copies, staged, nccl, nccl_none, xt, runs = read(path)
    most = max(links) if links else 0
    print('| problem | arrays | GPUs | median ms | each run, ms | over 1 GPU | floor ms | floor binds | this / floor '
          '| cufftXt pinned | this / cufftXt | note |')
    print('| --- ' * 12 + '|')
    cpu = {}
    for p, by in runs.items():
        if any(label.startswith('cpu_plan:') for label in by):
            cpu[p] = by
            continue
        base_runs = by.get('baseline_before', []) + by.get('baseline_after', [])
        for alloc in ('fftw_malloc', 'malloc'):
            one = statistics.median(by[f'1:{alloc}']) if f'1:{alloc}' in by else None
            for k in sorted(int(label.split(':')[0]) for label in by if label.endswith(':' + alloc)):
                times = by[f'{k}:{alloc}']
                t = statistics.median(times)
                lf = link_floor(links, k, p)
                cf = copy_floor(copies, k, p) if alloc == 'malloc' else None
                floor, binds = lf, 'links'
                if cf and (not lf or cf > lf):
                    floor, binds = cf, 'host copy'
                floor = floor * 1e3 if floor else None
                notes = []
                if k > 1 and floor and one and floor > one:
                    notes.append(f'floor above 1 GPU\'s {one:.2f} ms: no split of {k} can pay')
                peer = xt.get(p) if alloc == 'fftw_malloc' and k == most else None
                if alloc == 'fftw_malloc' and k == most and base_runs:
                    notes.append(f'baseline {spread(by.get("baseline_before", []))} before, '
                                 f'{spread(by.get("baseline_after", []))} after; this / baseline '
                                 f'{ratio(t, statistics.median(base_runs))}')
                print(f'| {p} | {alloc} | {k} | {ms(t)} | {spread(times)} | {ratio(one, t) if k > 1 else "-"} '
                      f'| {ms(floor)} | {binds if floor else "-"} | {ratio(t, floor)} | {ms(peer)} | {ratio(t, peer)} '
                      f'| {"; ".join(notes)} |')
    if cpu:
        print('\nA CPU plan (gpufftw\'s own choice), µs per execute: its time must not grow with the GPUs\n')
        print('| problem | GPUs | median µs | each run, µs | over 1 GPU |')
        print('| --- | --- | --- | --- | --- |')
        for p, by in cpu.items():
            one = statistics.median(by['cpu_plan:1']) if 'cpu_plan:1' in by else None
            for k in sorted(int(label.split(':')[1]) for label in by):
                times = by[f'cpu_plan:{k}']
                t = statistics.median(times)
                print(f'| {p} | {k} | {t * 1e3:.3f} | {" / ".join(f"{x * 1e3:.3f}" for x in times)} '
                      f'| {ratio(t, one) if k > 1 else "-"} |')
    print('\nFloors measured in this run (GB/s, the first k GPUs at once):\n')
    for k in sorted(links):
        print(f'- links, {k} GPU{"s" if k > 1 else ""}: ' + '; '.join(
            f'GPU {g} {r[0]:.1f} in / {r[1]:.1f} out one way, {r[2]:.1f} / {r[3]:.1f} both ways'
            for g, r in sorted(links[k].items())))
    for k in sorted(copies):
        print(f'- host copy of pageable memory, the copy threads of {k} GPU{"s" if k > 1 else ""}: ' + '; '.join(
            f'GPU {g} {r[0]:.1f} into pinned / {r[1]:.1f} out' for g, r in sorted(copies[k].items())))
    for (k, piece) in sorted(staged):
        print(f'- the same through gpufftw\'s staging (copy threads and DMA), {piece} MiB slots, {k} '
              f'GPU{"s" if k > 1 else ""}: ' + '; '.join(
                  f'GPU {g} {r[0]:.1f} in / {r[1]:.1f} out' for g, r in sorted(staged[(k, piece)].items())))
    for k in sorted(nccl):
        b, t, rate = nccl[k]
        print(f'- NCCL all-to-all, {k} GPUs: {rate:.1f} GB/s each GPU to the others ({b >> 20} MiB per GPU in '
              f'{t:.2f} ms)')
    for why in nccl_none:
        print(f'- NCCL all-to-all: not measured ({why})')


if __name__ == '__main__':
    main(sys.argv[1])
