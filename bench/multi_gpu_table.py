#!/usr/bin/env python3
"""multi_gpu_table.py RESULTS: the multi-GPU benchmark's table.

Per problem: median ms on one GPU and on all GPUs (fftw_malloc and malloc
arrays), the speedup of all over one, cufftXt's time on pinned arrays, and
the floor, the slowest GPU's time for its share of the bytes:
- a single transform moves its input in, then its output out: in over the
  rate with every link busy one way, plus out likewise;
- a batch streams in and out at once: the larger of in and out over each
  way's rate with every link busy both ways (bench/link_rates' duplex).
all/floor. Where the results hold a baseline's runs (bench/multi_gpu_run.sh
with GPUFFTW_BENCH_BASELINE: one before this build's run on all GPUs, one
after), two more columns: its times on all GPUs (fftw_malloc), before and
after, and this build's over their mean.
"""
import re
import sys


def problem_bytes(p):
    m = re.match(r'(c2c|r2c)-(f32|f64)-([0-9x]+)(?:-b(\d+))?$', p)
    kind, prec, dims, batch = m.group(1), m.group(2), [int(x) for x in m.group(3).split('x')], int(m.group(4) or 1)
    real = 4 if prec == 'f32' else 8
    n = 1
    for d in dims:
        n *= d
    if kind == 'c2c':
        return n * 2 * real * batch, n * 2 * real * batch
    cplx = n // dims[-1] * (dims[-1] // 2 + 1)
    return n * real * batch, cplx * 2 * real * batch


def link_floor(link, bytes_in, bytes_out, batch):
    """Seconds for one GPU's share over its link (LINK's rates, GB/s)."""
    if batch and len(link) >= 6:
        return max(bytes_in / (link[4] * 1e9), bytes_out / (link[5] * 1e9))
    return bytes_in / (link[2] * 1e9) + bytes_out / (link[3] * 1e9)


def main(path):
    links, times, xt = [], {}, {}
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == 'LINK':
            links.append(tuple(float(x) for x in f[2:8]))
        elif f[0] == 'RESULT' and f[1] == 'cufftxt':
            if len(f) > 3 and f[3] != 'FAILED':
                xt[f[2]] = float(f[3])
        elif f[0] == 'RESULT' and len(f) > 4 and f[3] != 'NULL-plan':
            times.setdefault(f[2], {})[f[1]] = float(f[4])
    g = len(links)
    base = any('baseline_before' in t or 'baseline_after' in t for t in times.values())
    print(f'| problem | 1 GPU fftw_malloc | {g} GPUs fftw_malloc | speedup | {g}-link floor | {g} GPUs / floor '
          f'| cufftXt pinned | {g} GPUs / cufftXt | 1 GPU malloc | {g} GPUs malloc | speedup |'
          + (f' baseline {g} GPUs, before / after | this / baseline |' if base else ''))
    print('| --- ' * (13 if base else 11) + '|')
    for p, t in times.items():
        bi, bo = problem_bytes(p)
        floor = max(link_floor(l, bi / g, bo / g, '-b' in p) for l in links) * 1e3 if g else 0
        one, two = t.get('one_fftw_malloc'), t.get('all_fftw_malloc')
        onem, twom = t.get('one_malloc'), t.get('all_malloc')

        def ms(x):
            return f'{x:.2f}' if x else '-'

        def ratio(a, b):
            return f'{a / b:.2f}x' if a and b else '-'
        runs = [x for x in (t.get('baseline_before'), t.get('baseline_after')) if x]
        b = sum(runs) / len(runs) if runs else None
        before_after = ' / '.join(ms(t.get(k)) for k in ('baseline_before', 'baseline_after'))
        print(f'| {p} | {ms(one)} | {ms(two)} | {ratio(one, two)} | {ms(floor)} | {ratio(two, floor)} '
              f'| {ms(xt.get(p))} | {ratio(two, xt.get(p))} | {ms(onem)} | {ms(twom)} | {ratio(onem, twom)} |'
              + (f' {before_after} | {ratio(two, b)} |' if base else ''))
    for i, l in enumerate(links):
        both = f', {l[4]:.1f} / {l[5]:.1f} with every link busy both ways' if len(l) >= 6 else ''
        print(f'\nGPU {i}: h2d {l[0]:.1f} / d2h {l[1]:.1f} GB/s alone, {l[2]:.1f} / {l[3]:.1f} with every link busy'
              f'{both}', end='')
    print()


if __name__ == '__main__':
    main(sys.argv[1])
