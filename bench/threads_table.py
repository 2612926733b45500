#!/usr/bin/env python3
"""threads_table.py RESULTS: bench/threads_run.sh's table.

Per pass and problem: median ms of the real FFTW at one thread and at all
cores, the GPU alone, gpufftw's own choice under FFTW_MEASURE and under
FFTW_ESTIMATE, and each of gpufftw's over the best of the three peers.
"""
import sys


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
    for i, res in enumerate(passes, 1):
        names = sorted({n for t in res.values() for n in t})
        fftw_all = [n for n in names if n.startswith('fftw') and n != 'fftw1']
        print(f'\npass {i}\n')
        print('| problem | fftw 1 thread | ' + ' | '.join(fftw_all) + ' | gpu | auto MEASURE | auto ESTIMATE '
              '| MEASURE / best | ESTIMATE / best |')
        print('| --- ' * (7 + len(fftw_all)) + '|')
        for p, t in res.items():
            peers = [t[n] for n in ['fftw1', 'gpu'] + fftw_all if n in t]
            best = min(peers) if peers else None

            def ms(n):
                return f'{t[n]:.4f}' if n in t else '-'

            def ratio(n):
                return f'{t[n] / best:.2f}x' if n in t and best else '-'
            print(f'| {p} | {ms("fftw1")} | ' + ' | '.join(ms(n) for n in fftw_all) +
                  f' | {ms("gpu")} | {ms("auto_measure")} | {ms("auto_estimate")} | {ratio("auto_measure")} '
                  f'| {ratio("auto_estimate")} |')


if __name__ == '__main__':
    main(sys.argv[1])
