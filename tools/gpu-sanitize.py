#!/usr/bin/env python3
"""gpu-sanitize.py BUILD OUT [--tools memcheck,racecheck,synccheck]
[--jobs N] [--timeout S] [--deadline S] [--only REGEX]: every GPU test of
BUILD (ctest label "gpu", each with the command and environment ctest
gives it) under compute-sanitizer, once per tool, N at a time.

Left out, said in the summary: the sticky-error tests (they make a kernel
trap on purpose, which the sanitizer rightly reports), the tests past 2^31
elements (they skip unless GPUFFTW_TEST_LARGE is set, which they would
still do here) and the test that no CUDA library is loaded for plans kept
on the CPU (the sanitizer loads one itself). The tests ctest runs alone
(RUN_SERIAL: they take the device's memory) run one at a time after the
rest: alongside them the others would find no memory; their out-of-memory
API errors are provoked on purpose, so the tool reports no API errors there
(memory accesses are still checked). A test past its timeout is killed
with everything it started.

Instrumented kernels run many times slower, so three tests run less than
their whole: the concurrency test 3,200 executes instead of 100,000 (the
threads' interleavings are what it holds to), and under racecheck the own
kernels' every-size sweep every 17th length past the direct DFT's, and
one test's batches at 40009 points instead of 10^6
(tests/gpu/kernels_gpu_test.cc says why, and tests that every variant
still runs, over several blocks with a partial last one).

--only REGEX keeps the tests whose names match. --deadline S ends the
whole run S seconds after its start (to end by a set time): a test then
running is killed (TIMEOUT), one not yet started is NOT RUN.

Each run ends as one of: PASS; NO CUDA (the test made no CUDA call, so
there was nothing to check); SANITIZER (the tool reported errors or
racecheck hazards: exit 99 or a nonzero summary); TEST FAILED (the test
failed without a sanitizer report, e.g. a timing-based choice under
instrumentation); TIMEOUT; NOT RUN. Exits 1 on any SANITIZER, TIMEOUT or
NOT RUN, 0 otherwise; TEST FAILED is listed for a look but does not fail
the step. Each test's verdict is printed as it ends, the summary last.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import signal
import subprocess
import sys
import time

LEFT_OUT = {
    'gpu_sticky_error': 'traps on purpose',
    'gpu_sticky_error_split': 'traps on purpose',
    'DispatchColdStart.PlansKeptOnTheCpuStartNoCuda': 'asks that no CUDA library is loaded; the sanitizer loads one',
}
LEFT_OUT_PREFIX = ('Large.',)
# (tools, test name pattern, environment): under those tools, set for those
# tests.
EXTRA_ENV = [
    (('memcheck', 'racecheck', 'synccheck'), r'^concurrency_gpu$', {'GPUFFTW_TEST_EXECUTES': '3200'}),
    (('racecheck',), r'^Kernels/EverySize\.', {'GPUFFTW_TEST_SIZE_STRIDE': '17'}),
    (('racecheck',), r'^Kernels\.OffsetArraysAndManyBlocks$', {'GPUFFTW_TEST_MANY_POINTS': '40009'}),
]


def gpu_tests(build):
    out = subprocess.run(['ctest', '-L', 'gpu', '--show-only=json-v1'], cwd=build, check=True,
                         capture_output=True, text=True).stdout
    for t in json.loads(out)['tests']:
        props = {p['name']: p['value'] for p in t.get('properties', [])}
        env = dict(os.environ)
        for kv in props.get('ENVIRONMENT', []):
            k, v = kv.split('=', 1)
            env[k] = v
        for mod in props.get('ENVIRONMENT_MODIFICATION', []):
            k, op = mod.split('=', 1)
            how, _, v = op.partition(':')
            if how == 'set':
                env[k] = v
            elif how == 'unset':
                env.pop(k, None)
            else:
                sys.exit(f'gpu-sanitize: ENVIRONMENT_MODIFICATION {mod}: only set and unset are read')
        yield t['name'], t['command'], env, props.get('WORKING_DIRECTORY', build), bool(props.get('RUN_SERIAL'))


def run_one(cs, tool, name, cmd, env, cwd, serial, out, timeout, end):
    log = os.path.join(out, f'sanitizer-{tool}-{re.sub(r"[^A-Za-z0-9_.-]", "_", name)}.log')
    t0 = time.time()
    if t0 >= end:
        print(f'{tool} {name}: NOT RUN (deadline)', flush=True)
        return tool, name, 'NOT RUN', None, 0, log
    # The tests run alone provoke out-of-memory API errors on purpose.
    extra = ['--report-api-errors', 'no'] if serial else []
    env = dict(env)
    for tools, pattern, more in EXTRA_ENV:
        if tool in tools and re.search(pattern, name):
            env.update(more)
    with open(log, 'w') as f:
        # A session of its own, so that a timeout kills the test under the
        # sanitizer too, not the sanitizer alone.
        p = subprocess.Popen([cs, '--tool', tool, '--error-exitcode', '99'] + extra + cmd, env=env, cwd=cwd,
                             stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=min(timeout, end - t0))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = None
    text = open(log, errors='replace').read()
    found = re.findall(r'(?:ERROR SUMMARY: (\d+) error|RACECHECK SUMMARY: (\d+) hazard)', text)
    errors = int(found[-1][0] or found[-1][1]) if found else None
    if rc is None:
        verdict = 'TIMEOUT'
    elif errors is None and 'terminated before first instrumented API call' in text and rc != 99:
        verdict = 'NO CUDA'
    elif rc == 99 or (errors or 0) > 0:
        verdict = 'SANITIZER'
    elif rc != 0:
        verdict = 'TEST FAILED'
    else:
        verdict = 'PASS'
    secs = time.time() - t0
    # Said as each test ends, so that a run cut short still tells what ended.
    print(f'{tool} {name}: {verdict} ({secs:.0f} s)', flush=True)
    return tool, name, verdict, errors, secs, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build')
    ap.add_argument('out')
    ap.add_argument('--tools', default='memcheck,racecheck,synccheck')
    ap.add_argument('--jobs', type=int, default=os.cpu_count())
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('--deadline', type=float, default=float('inf'))
    ap.add_argument('--only', default='')
    a = ap.parse_args()
    end = time.time() + a.deadline
    cs = os.environ.get('COMPUTE_SANITIZER', 'compute-sanitizer')
    os.makedirs(a.out, exist_ok=True)
    tests, alone, skipped = [], [], []
    for name, cmd, env, cwd, serial in gpu_tests(a.build):
        if not re.search(a.only, name):
            continue
        why = LEFT_OUT.get(name) or ('past 2^31 elements: skips here' if name.startswith(LEFT_OUT_PREFIX) else None)
        if why:
            skipped.append((name, why))
        else:
            (alone if serial else tests).append((name, cmd, env, cwd, serial))
    results = []
    for tool in a.tools.split(','):
        with cf.ThreadPoolExecutor(a.jobs) as pool:
            results += pool.map(lambda t: run_one(cs, tool, *t, a.out, a.timeout, end), tests)
        results += [run_one(cs, tool, *t, a.out, a.timeout, end) for t in alone]
    with open(os.path.join(a.out, 'sanitizer-summary.txt'), 'w') as s:
        def say(line):
            print(line)
            s.write(line + '\n')
        for tool, name, verdict, errors, secs, log in results:
            if verdict not in ('PASS', 'NO CUDA'):
                say(f'{tool} {name}: {verdict} (errors {errors}, {secs:.0f} s, {log})')
        for tool in a.tools.split(','):
            mine = [r for r in results if r[0] == tool]
            counts = {v: sum(1 for r in mine if r[2] == v)
                      for v in ('PASS', 'NO CUDA', 'SANITIZER', 'TEST FAILED', 'TIMEOUT', 'NOT RUN')}
            errs = sum(r[3] or 0 for r in mine)
            say(f'compute-sanitizer {tool}: {len(mine)} GPU tests, {errs} errors or hazards; ' +
                ', '.join(f'{k} {v}' for k, v in counts.items()))
        for name, why in skipped:
            say(f'left out: {name} ({why})')
    bad = [r for r in results if r[2] in ('SANITIZER', 'TIMEOUT', 'NOT RUN')]
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
