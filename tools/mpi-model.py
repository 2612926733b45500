#!/usr/bin/env python3
"""mpi-model.py: the on-paper time per execute of a distributed 3-D c2c f32
transform through gpufftw's MPI path (issue 25, item 6): N nodes x G GPUs, one
rank per GPU, host arrays (fftw_malloc), slab decomposition as FFTW MPI does.
Prints the tables of docs/mpi.md. Rates are assumptions, set below or on the
command line: --pcie GB/s per GPU each way, --nvlink GB/s per GPU pair,
--net GB/s per node each way, --gpus G, --transposes 1|2.

Per execute, every rank at once (B = 8 n^3 bytes, P = N*G ranks):
  T_pcie = (B/P) / pcie                 its slab in, and again out
  T_nvl  = (B/P) (G-1)/P / nvlink       per transpose, to the node's other GPUs
  T_net  = (B/N) (N-1)/N / net          per transpose, what leaves one node
  T_x    = max(T_nvl, T_net)            the two kinds of link work at once
  T_fft  = 2.5 ms x (n^3 log n)/(512^3 log 512) / P   (cuFFT, H100, measured)
  overlapped: T = max(T_pcie, T_x) + max(T_pcie, (c-1) T_x)
      (the first transpose streams behind the slab's way in, the second, if
      any, ahead of the way out; compute hidden behind both)
  serial:     T = 2 T_pcie + c T_x + T_fft  (nothing overlapped: the upper bound)
c = 2 global transposes for FFTW MPI's default layout (out in the input's
order), 1 with FFTW_MPI_TRANSPOSED_OUT.
"""
import argparse
import math

p = argparse.ArgumentParser()
p.add_argument("--pcie", type=float, default=53.0)
p.add_argument("--nvlink", type=float, default=370.0)
p.add_argument("--net", type=float, default=25.0)
p.add_argument("--gpus", type=int, default=2)
p.add_argument("--transposes", type=int, default=2)
p.add_argument("--gpu-mem", type=float, default=141.0, help="GB of memory per GPU (H200 141, H100 80)")
a = p.parse_args()
GB = 1e9


def model(n, N, G, c=None):
    c = a.transposes if c is None else c
    P = N * G
    B = 8.0 * n ** 3
    t_pcie = B / P / (a.pcie * GB)
    t_nvl = B / P * (G - 1) / P / (a.nvlink * GB)
    t_net = B / N * (N - 1) / N / (a.net * GB)
    t_x = max(t_nvl, t_net)
    t_fft = 2.5e-3 * (n ** 3 * math.log2(n)) / (512 ** 3 * 9) / P
    over = max(t_pcie, t_x) + max(t_pcie, (c - 1) * t_x)
    serial = 2 * t_pcie + c * t_x + t_fft
    return over * 1e3, serial * 1e3, t_pcie * 1e3, t_x * 1e3


def fmt(ms):
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.1f}"


def fits(n, N, G):
    """The slab and its out-of-place twin on the GPU (2 B/P), and P <= n slabs."""
    P = N * G
    return 2 * 8.0 * n ** 3 / P <= a.gpu_mem * GB and P <= n


nodes = [1, 2, 4, 8, 16, 32, 64]
G = a.gpus
print(f"Assumed: GPU memory {a.gpu_mem:g} GB; PCIe {a.pcie:g} GB/s per GPU each way, NVLink {a.nvlink:g} GB/s per GPU, "
      f"network {a.net:g} GB/s per node each way, {G} GPUs per node, {a.transposes} transposes.\n")
print("Checks against the one-node measurements (G=1: one GPU, no exchange; G=2, N=1):")
for n, meas1, meas2 in [(512, "41 (gpufftw, 1 GPU)", "21.2 (cufftXt, 2 GPUs, pinned)"), (1024, "327 (gpufftw, 1 GPU)", "-")]:
    P1 = 2 * 8.0 * n ** 3 / (a.pcie * GB) * 1e3
    o, s, _, _ = model(n, 1, 2)
    print(f"  {n}^3: 1 GPU {P1:.1f} ms (measured {meas1}); 1 node x 2 GPUs {o:.1f}-{s:.1f} ms (measured {meas2})")
print()
print(f"Strong scaling: ms per execute, overlapped (serial), N nodes x {G} GPUs")
print("| n^3 | " + " | ".join(f"{N} node{'s' if N > 1 else ''}" for N in nodes) + " |")
print("| --- |" + " --- |" * len(nodes))
for n in [1024, 2048, 4096]:
    mem = 8.0 * n ** 3 / GB
    row = []
    for N in nodes:
        o, s, _, _ = model(n, N, G)
        row.append(f"{fmt(o)} ({fmt(s)})" + ("" if fits(n, N, G) else " †"))
    print(f"| {n}^3 ({mem:,.0f} GB) | " + " | ".join(row) + " |")
print()
print(f"† the slab and its out-of-place twin do not fit in {a.gpu_mem:g} GB per GPU: it would be staged through in"
      " pieces, each byte crossing PCIe more than once (not modelled).\n")
print(f"Weak scaling: n^3 grows with the nodes (1024^3 per node), ms per execute, overlapped (serial)")
print("| nodes | n^3 | ms | of which network per transpose | PCIe per way |")
print("| --- | --- | --- | --- | --- |")
for N in nodes:
    n = round(1024 * N ** (1 / 3))
    o, s, tp, tx = model(n, N, G)
    print(f"| {N} | {n}^3 | {fmt(o)} ({fmt(s)}) | {fmt(tx)} | {fmt(tp)} |")
