#!/usr/bin/env python3
"""tables_test.py: the multi-GPU, MPI and fp16 benchmarks' tables
(bench/multi_gpu_table.py, bench/mpi_table.py, bench/fp16_table.py) on
small result files of known rates and times, against floors, medians and
ratios worked out by hand:
- c2c f32 512^3 moves 2^30 bytes each way. Its single-transform floor on
  one GPU is 2^30 B in and out at 50 GB/s (42.95 ms); on two, each GPU's
  half, the slower GPU (25 GB/s in) binding (32.21 ms). Through the host
  copy at 20 GB/s (one GPU) and 10 (each of two) the malloc rows' floor is
  107.37 ms either way, above the links'.
- The batch c2c f32 4096 x 4096 moves 2^27 bytes each way, in and out at
  once: on two GPUs the slower GPU's duplex 20 GB/s binds (3.36 ms); its
  malloc rows' host copy (13.42 ms on two) is above one GPU's 12.00 ms,
  which the row says.
- A row's time is the median of its three rounds; the MPI table takes the
  rounds of the latest call only.
- The fp16 table (bench/fp16_table.py, fp16_out/) sets each problem's rows
  over two GPUs ("malloc@2") against fp16 on one GPU and fp32 on the two:
  the batch 6.00 ms on one GPU, 4.00 on two (1.50x), fp32 5.00 (1.25x),
  split; the 2-D 3.00 ms on either, on one GPU of the two, fp32's slabs
  2.50 (0.83x). The two-GPU rows stay out of the one-GPU host table. The
  batch on one GPU, 8.00 ms fp32 and 6.00 fp16 (1.33x), moves 2^27 bytes
  of floats each way: the model's bound at a conversion of 2^28 B / 10 ms
  is 0.80x; the staging's, 2^27 B in at 2^25 B/ms (4.0 ms) and out at
  2^27 B / 2.5 ms, is 8.00 / 6.50 = 1.23x, the larger, which 1.33x meets
  (the marked rows only: the 2 Mi rows would give 0.33x). On device
  data, the 1-D batch's fp16 plan (0.100 ms) against cuFFT on half data
  (0.050 ms, 0.50x) and against cuFFT as an FFTW program's execute on
  floats would have it, synced: FP32 0.110 ms, FP16 from floats 0.140, the
  faster 1.10x; the 2-D's kernels line, from before the synced columns,
  leaves them empty. execute_cost's lines give a row per problem with a
  column per variant in the order first seen, the peer's time over each
  (100 us over 105: 0.95), and "-" where a problem lacks a variant.
- The never-slower table (bench/never_slower_table.py) with a baseline
  revision measured beside this build: the batch 2.00 ms over the set
  against the baseline's 1.60 (1.25), 3.00 against 3.00 (1.00), the third
  point's baseline missing; the median of 1.25 and 1.00 is 1.12, and the
  baseline's rows stay out of the every-GPU-over-one table.
"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
bench = os.path.join(here, '..', '..', 'bench')
failures = []


def table(script, fixture):
    return subprocess.run([sys.executable, os.path.join(bench, script), os.path.join(here, fixture)],
                          check=True, capture_output=True, text=True).stdout.splitlines()


def expect(lines, row, what):
    if row not in lines:
        failures.append(f'{what}: no line\n  {row}\nin\n  ' + '\n  '.join(lines))


multi = table('multi_gpu_table.py', 'multi_results.txt')
expect(multi, '| c2c-f32-512x512x512 | fftw_malloc | 1 | 45.00 | 45.00 / 44.00 / 46.00 | - | 42.95 | links | 1.05x '
       '| - | - |  |', 'one GPU over its link')
expect(multi, '| c2c-f32-512x512x512 | fftw_malloc | 2 | 35.00 | 35.00 / 30.00 / 36.00 | 1.29x | 32.21 | links '
       '| 1.09x | 11.00 | 3.18x | baseline 40.00 / 41.00 / 39.00 before, 42.00 / 43.00 / 44.00 after; '
       'this / baseline 0.84x |', 'two GPUs, the slower link binding, cufftXt and the baseline beside')
expect(multi, '| c2c-f32-512x512x512 | malloc | 2 | 119.00 | 120.00 / 118.00 / 119.00 | 0.93x | 107.37 | host copy '
       '| 1.11x | - | - |  |', 'malloc arrays: the host copy binds')
expect(multi, '| c2c-f32-4096-b4096 | fftw_malloc | 2 | 3.50 | 3.50 / 3.60 / 3.40 | 1.03x | 3.36 | links | 1.04x '
       '| - | - |  |', 'a batch over the duplex rates')
expect(multi, '| c2c-f32-4096-b4096 | malloc | 2 | 14.00 | 14.00 / 14.20 / 13.90 | 0.86x | 13.42 | host copy '
       '| 1.04x | - | - | floor above 1 GPU\'s 12.00 ms: no split of 2 can pay |', 'a floor above one GPU said')
expect(multi, '| c2c-f32-1024 | 2 | 2.000 | 2.000 / 2.100 / 1.900 | 1.54x |', 'the CPU plan on two GPUs')
expect(multi, '- NCCL all-to-all, 2 GPUs: 67.1 GB/s each GPU to the others (512 MiB per GPU in 4.00 ms)',
       'NCCL\'s rate')
expect(multi, '- host copy of pageable memory, the copy threads of 2 GPUs: GPU 0 10.0 into pinned / 10.0 out; '
       'GPU 1 10.0 into pinned / 10.0 out', 'the host copy rates')
expect(multi, "- the same through gpufftw's staging (copy threads and DMA), 2 MiB slots, 2 GPUs: GPU 0 9.8 in / 9.1 out; "
       'GPU 1 9.7 in / 9.2 out', 'the staging rates by slot size')

mpi = table('mpi_table.py', 'mpi_bench.txt')
expect(mpi, '| gpufftw-composed | 1 x 32 | 45.0 | 45.0 / 46.0 / 44.0 | 42.9 | 1.05x | 1.00x | 1.50x | - | gpu |',
       'one rank over its link, the latest call\'s rounds')
expect(mpi, '| gpufftw-composed | 2 x 16 | 35.0 | 35.0 / 34.0 / 36.0 | 32.2 | 1.09x | 1.29x | 1.17x | - | gpu |',
       'two ranks over the two-link floor')

fp16 = table('fp16_table.py', 'fp16_out')
expect(fp16, '| c2c-f32-4096-b4096 | malloc | 2 | 6.000 | 4.000 | 1.50 | 5.000 | 1.25 | cuFFT fp16 | yes |',
       'an fp16 batch split over two GPUs')
expect(fp16, '| c2c-f32-4096x4096 | malloc | 2 | 3.000 | 3.000 | 1.00 | 2.500 | 0.83 | ours (tensor cores) | no |',
       'one fp16 2-D transform on one GPU of two')
expect(fp16, '| c2c-f32-4096-b4096 | malloc | 8.000 | 6.000 | 1.33 | 1.5 | 0.80 | 1.23 | yes | cuFFT fp16 |',
       'the one-GPU host row, met against the staging\'s bound')
expect(fp16, '| c2c-f32-1024-b16384 | 0.105 | 0.100 | f32 | 0.050 | 0.095 | 0.50 | 0.50 | 1.05 | 0.140 | 0.110 | 1.10 |',
       'a device row against cuFFT on half data and against cuFFT synced on floats')
expect(fp16, '| c2c-f32-4096x4096 | - | 0.250 | f32 | 0.460 | 0.240 | 0.96 | 1.84 | - | - | - | - |',
       'a device row whose kernels line has no synced columns')
expect(fp16, '| problem | peer | stream | queries | gpufftw |', 'execute_cost: a column per variant')
expect(fp16, '| c2c-f32-1024-b16384 | 100.00 (1.00) | 100.00 (1.00) | 104.00 (0.96) | 105.00 (0.95) |',
       'execute_cost: each variant against the peer')
expect(fp16, '| c2c-f32-1024 | 10.00 (1.00) | - | - | 12.50 (0.80) |', 'execute_cost: a variant missing')
if any(line.startswith('| c2c-f32-4096-b4096 | malloc@2 |') for line in fp16):
    failures.append('fp16: a two-GPU row in the one-GPU host table')

never = table('never_slower_table.py', 'never_slower_results.txt')
expect(never, '| c2c-f32-4096-b4096 | 3.000 | 3.000 | 1.00 | 2.000 | 1.600 | 1.25 |', 'a point against the baseline')
expect(never, '| c2c-f32-1000-b16384 | 4.000 | 4.000 | 1.00 | 4.400 | missing | - |', 'a baseline point missing')
expect(never, 'this / baseline, measure, every GPU: median 1.12, worst 1.25 (c2c-f32-4096-b4096, fftw)',
       'the median and the worst over the set')
expect(never, '| c2c-f32-4096-b4096 | 3.000 | 2.000 | 0.67 | on GPU 0 | on GPUs 0,1: the batch split 2048+2048 |',
       'every GPU over one, this build alone')

if failures:
    print('\n'.join('FAIL: ' + f for f in failures))
    sys.exit(1)
print('PASS')
