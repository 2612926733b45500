#!/usr/bin/env python3
"""threads_table.py RESULTS: bench/threads_run.sh's table.

Per flag (measure, estimate): per side (the real FFTW at one thread and at
all cores, the GPU alone, gpufftw's own choice), the median over the rounds
of each process's median execute in ms; gpufftw's over the best of the
three peers; and the range of that ratio over the rounds, each round's
sides read in that round, which shows how far one round's reading can
stray.
"""
import statistics
import sys


def table(rounds, flag):
    problems = list(dict.fromkeys(p for r in rounds for p in r))
    names = sorted({n for r in rounds for t in r.values() for n in t if n.endswith('_' + flag)})
    fftw_all = [n for n in names if n.startswith('fftw') and not n.startswith('fftw1_')]
    peers = ['fftw1_' + flag] + fftw_all + ['gpu_' + flag]
    auto = 'auto_' + flag

    def ratio_of(t):  # gpufftw over the best peer of one set of readings
        best = [t[n] for n in peers if n in t]
        return t[auto] / min(best) if auto in t and best else None

    print(f'\nFFTW_{flag.upper()}, median of {len(rounds)} rounds\n')
    print('| problem | ' + ' | '.join(n.rsplit('_', 1)[0] for n in peers) +
          ' | gpufftw | gpufftw / best | range over rounds |')
    print('| --- ' * (len(peers) + 4) + '|')
    for p in problems:
        med = {}
        for n in peers + [auto]:
            got = [r[p][n] for r in rounds if n in r.get(p, {})]
            if got:
                med[n] = statistics.median(got)
        per_round = [ratio_of(r.get(p, {})) for r in rounds]
        per_round = [x for x in per_round if x is not None]
        cells = [f'{med[n]:.4g}' if n in med else '-' for n in peers + [auto]]
        ratio = f'{ratio_of(med):.2f}x' if ratio_of(med) is not None else '-'
        spread = f'{min(per_round):.2f}-{max(per_round):.2f}x' if per_round else '-'
        print(f'| {p} | ' + ' | '.join(cells) + f' | {ratio} | {spread} |')


def main(path):
    rounds = []
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == 'ROUND':
            rounds.append({})
        elif f[0] == 'RESULT' and rounds and len(f) > 4 and f[3] != 'NULL-plan':
            rounds[-1].setdefault(f[2], {})[f[1]] = float(f[4])
    for flag in ('measure', 'estimate'):
        table(rounds, flag)


if __name__ == '__main__':
    main(sys.argv[1])
