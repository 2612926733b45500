#!/usr/bin/env python3
"""threads_table.py RESULTS: bench/threads_run.sh's table.

Per flag (measure, estimate), per pass and for the lesser of the passes'
medians: median ms of the real FFTW at one thread and at all cores, the GPU
alone and gpufftw's own choice, and gpufftw's over the best of the three.
"""
import sys


def table(title, res, flag):
    names = sorted({n for t in res.values() for n in t if n.endswith('_' + flag)})
    fftw_all = [n for n in names if n.startswith('fftw') and not n.startswith('fftw1_')]
    peers = ['fftw1_' + flag] + fftw_all + ['gpu_' + flag]
    print(f'\n{title}, FFTW_{flag.upper()}\n')
    print('| problem | ' + ' | '.join(n.rsplit('_', 1)[0] for n in peers) + ' | gpufftw | gpufftw / best |')
    print('| --- ' * (len(peers) + 3) + '|')
    for p, t in res.items():
        got = [t[n] for n in peers if n in t]
        best = min(got) if got else None
        auto = t.get('auto_' + flag)
        cells = [f'{t[n]:.4f}' if n in t else '-' for n in peers]
        ratio = f'{auto / best:.2f}x' if auto and best else '-'
        print(f'| {p} | ' + ' | '.join(cells) + f' | {auto:.4f} | {ratio} |' if auto else f'| {p} | - |')


def main(path):
    passes, cur = [], None
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == 'PASS':
            cur = {}
            passes.append(cur)
        elif f[0] == 'RESULT' and cur is not None and len(f) > 4 and f[3] != 'NULL-plan':
            cur.setdefault(f[2], {})[f[1]] = float(f[4])
    least = {}
    for res in passes:
        for p, t in res.items():
            for n, v in t.items():
                least.setdefault(p, {})[n] = min(v, least.get(p, {}).get(n, v))
    for flag in ('measure', 'estimate'):
        for i, res in enumerate(passes, 1):
            table(f'pass {i}', res, flag)
        table('lesser of the passes', least, flag)


if __name__ == '__main__':
    main(sys.argv[1])
