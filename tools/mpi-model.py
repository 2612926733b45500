#!/usr/bin/env python3
"""mpi-model.py: the on-paper time per execute of a distributed 3-D FFT through
gpufftw's device-resident MPI path, past one node. docs/mpi-scale.md says what
it models; docs/results/mpi-scale.md holds its tables and where each number
comes from.

What it models. N nodes x G GPUs, one rank per GPU, P = N*G ranks, FFTW MPI's
slab layout, host arrays from fftw_malloc (pinned). Each rank's slab holds
S = B/P bytes (B = the whole complex array: 8 n^3 for c2c f32). Per execute
every rank, at the same time:

  1. copies its slab to its GPU in k chunks (k = S / 16 MiB, 1 to 8, as the
     code picks it); each chunk's step 1 (a 2-D FFT of its planes) and its
     pack for the exchange run while the next chunk is on its way;
  2. the first global transpose, GPU to GPU through NCCL (grouped
     ncclSend/ncclRecv): (G-1)/P of the slab to the node's other GPUs over
     NVLink, (P-G)/P of it to other nodes through the NICs, both at once;
     nothing overlaps it;
  3. step 3 (the 1-D FFTs along the first dimension), in place;
  4. default layout: the second global transpose in k chunks, each chunk
     copied back to the host as soon as it has arrived; with
     FFTW_MPI_TRANSPOSED_OUT no second transpose, only a turn on the GPU
     (one pass over the slab) in k chunks ahead of the copy out.

Two stages over k equal chunks, a then b on each: pipe(A, B) = A/k + B/k +
(k-1) max(A, B)/k for the totals A and B, i.e. the slower stage plus one chunk
of the faster. With 1 pass = S / gpu_pass (one read and one write of the slab
on the GPU):

  T      = T_in + T_x1 + T_fft3 + T_out
  T_in   = pipe(S/pcie_in, 3 passes)       copy in | step 1 (2 passes) + pack (1)
  T_x    = x_latency + max(S(G-1)/P / nvlink, S(P-G)/P / (nics net / G))
  T_x1   = T_x                             not overlapped
  T_fft3 = 1 pass                          not overlapped
  T_out  = a + b + (k-1) max(a, b, l)      default layout, per chunk:
           a = x_latency + (T_x - x_latency)/k   its part of the second exchange
           b = S/pcie_out/k                      its copy out
           l = (S + S(P-G)/P)/pcie_out/k         the GPU's one PCIe link, which
               carries both the copy out and every byte that leaves for a NIC
  T_out  = pipe(1 pass, S/pcie_out)        FFTW_MPI_TRANSPOSED_OUT (the turn)

One GPU (P = 1) is gpufftw's serial plan, which pipelines its two phases the
same way: pipe(S/pcie_in, 2 passes) + pipe(1 pass, S/pcie_out).

Rates are arguments; their defaults are one-node measurements and fits to
them (PCIe in and out per GPU, the NCCL exchange's rate and latency, a GPU
pass over the slab): docs/results/mpi-scale.md, "Rates", gives each with its
machine, date and command. The network (--net GB/s per NIC each way, --nics
per node) and the GPU memory (--gpu-mem) are assumptions. The real FFTW MPI
is modelled as its measured per-core rate times the cores, scaling
perfectly, which flatters it.

  tools/mpi-model.py --check              model against the one-node measurements
  tools/mpi-model.py [--net 25|50]        strong scaling, both layouts
  tools/mpi-model.py --nics 1             the same with one NIC per node
  tools/mpi-model.py --compare            against the real FFTW MPI, and the
                                          device-resident part alone
  tools/mpi-model.py --breakdown          each phase of an execute
Python 3, no packages.
"""
import argparse
import math
import sys

GB = 1e9
MIB = 1 << 20

# The one-node measurements --check holds the model to, ms per execute
# (bench/mpi_run.sh bench, FFTW_MEASURE, fftw_malloc arrays, medians;
# docs/results/mpi-scale.md gives the machine and date).
MEASURED = {
    # (kind, n): {ranks on their own GPUs: ms}; 1 = one rank on one GPU
    ("c2c-f32", 512): {2: 21.3, 1: 40.4},
    ("c2c-f32", 1024): {2: 167.2, 1: 314.5},
    ("r2c-f32", 1024): {2: 84.1, 1: 163.1},
    ("c2c-f64", 512): {2: 41.9, 1: 79.4},
}
MEASURED_TRANSPOSED = {("c2c-f32", 512): 21.2}  # 2 ranks, FFTW_MPI_TRANSPOSED_OUT
MEASURED_ONE_PROCESS = {("c2c-f32", 512): 21.4, ("c2c-f32", 1024): 166.6}  # both GPUs, not MPI
# Per-rank phases on 2 ranks, ms: in (with step 1 and pack), first exchange,
# step 3, second exchange with the copy out.
MEASURED_PHASES = {
    ("r2c-f32", 1024): (39.3, 3.64, 1.48, 39.6),
    ("c2c-f32", 512): (9.84, 1.00, 0.40, 9.98),
}
# The real FFTW MPI, c2c f32 512^3, FFTW_MEASURE, 2 ranks x 16 threads (32 cores).
FFTW_MPI_MS, FFTW_MPI_CORES, FFTW_MPI_N = 634.0, 32, 512


def array_bytes(kind, n):
    """The complex array of an n^3 transform: c2c n^3 values, r2c n^2 (n/2+1)."""
    prec = 8 if kind.endswith("f32") else 16
    if kind.startswith("r2c"):
        return n * n * (n // 2 + 1) * prec
    return n ** 3 * prec


def pipe(a, b, k):
    """Two stages over k equal chunks, totals a and b: a/k + b/k + (k-1) max."""
    return a / k + b / k + (k - 1) * max(a, b) / k


def chunks(slab):
    return int(min(max(slab // (16 * MIB), 1), 8))


def execute(a, kind, n, N, G, transposed=False):
    """The phases of one execute, in ms, and what bounds them."""
    P = N * G
    B = array_bytes(kind, n)
    S = B / P
    k = chunks(S)
    ms = 1e3
    pas = S / (a.gpu_pass * GB) * ms
    cin = S / (a.pcie_in * GB) * ms
    cout = S / (a.pcie_out * GB) * ms
    if P == 1:
        t_in = pipe(cin, 2 * pas, k)
        t_out = pipe(pas, cout, k)
        return dict(S=S, k=k, P=P, t_in=t_in, x1=0.0, fft3=0.0, t_out=t_out, total=t_in + t_out,
                    x_full=0.0, net_part=0.0, nvl_part=0.0, dev=3 * pas, cin=cin, cout=cout, bound="PCIe")
    nvl_bytes = S * (G - 1) / P
    net_bytes = S * (P - G) / P
    net_rate = a.nics * a.net / G * GB  # what one GPU's share of its node's NICs carries each way
    t_nvl = nvl_bytes / (a.nvlink * GB) * ms
    t_net = net_bytes / net_rate * ms if net_bytes else 0.0

    def exch(frac):
        return a.x_latency + max(t_nvl, t_net) * frac

    t_in = pipe(cin, 3 * pas, k)
    x1 = exch(1.0)
    fft3 = pas
    if transposed:
        t_out = pipe(pas, cout, k)
        x2_full = 0.0
        bound = "PCIe" if cin >= x1 else "network"
    else:
        e = exch(1.0 / k)  # one chunk of the second exchange
        c = cout / k
        link = (S + net_bytes) / (a.pcie_out * GB) * ms / k if (a.shared_link and net_bytes) else 0.0
        t_out = e + c + (k - 1) * max(e, c, link)
        x2_full = k * e
        m = max(e, c, link)
        bound = "PCIe" if m == c else ("GPU link" if m == link else "network" if t_net >= t_nvl else "NVLink")
    total = t_in + x1 + fft3 + t_out
    dev = 3 * pas + x1 + fft3 + (x2_full if not transposed else pas)
    return dict(S=S, k=k, P=P, t_in=t_in, x1=x1, fft3=fft3, t_out=t_out, total=total, x_full=x1,
                net_part=t_net, nvl_part=t_nvl, dev=dev, cin=cin, cout=cout, bound=bound)


def fits(a, kind, n, N, G):
    """Three slab-sized device buffers per GPU, and no more ranks than planes."""
    P = N * G
    return 3 * array_bytes(kind, n) / P <= a.gpu_mem * GB and P <= n


def small_messages(a, kind, n, N, G, transposed):
    """Per-peer messages under 256 KiB in an exchange (the chunks of the second
    one): where latency rather than bandwidth may rule (not modelled)."""
    P = N * G
    S = array_bytes(kind, n) / P
    k = 1 if transposed else chunks(S)
    return N > 1 and S / P / k < 256 * 1024


def fftw_core_seconds():
    """Seconds one core spends per n^3 log2 n point-stage, from the measured run."""
    n = FFTW_MPI_N
    return FFTW_MPI_MS / 1e3 * FFTW_MPI_CORES / (n ** 3 * math.log2(n))


def fftw_mpi_ms(a, kind, n, N):
    """c2c f32 only: the rate was measured on that."""
    return fftw_core_seconds() * n ** 3 * math.log2(n) / (N * a.cores) * 1e3


def fftw_net_ms(a, kind, n, N, transposes=2):
    """The real FFTW MPI's transposes over the same NICs (what leaves one node)."""
    if N == 1:
        return 0.0
    B = array_bytes(kind, n)
    return transposes * B / N * (N - 1) / N / (a.nics * a.net * GB) * 1e3


def fmt(ms):
    if ms >= 1000:
        return f"{ms:,.0f}"
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}"


NODES = [1, 2, 4, 8, 16, 32, 64]
SIZES = [1024, 2048, 4096]


def header(first):
    return ("| " + first + " | " + " | ".join(f"{N} node{'s' if N > 1 else ''}" for N in NODES) + " |\n"
            "| --- |" + " ---: |" * len(NODES))


def assumptions(a):
    print(f"Assumed: {a.gpus} GPUs per node, one rank each; PCIe {a.pcie_in:g} in / {a.pcie_out:g} out GB/s per GPU "
          f"(every GPU at once); NCCL over NVLink {a.nvlink:g} GB/s per GPU each way + {a.x_latency:g} ms per exchange; "
          f"network {a.nics:g} NIC{'s' if a.nics != 1 else ''} per node x {a.net:g} GB/s each way; "
          f"GPU pass {a.gpu_pass:g} GB/s; GPU memory {a.gpu_mem:g} GB; "
          f"{'the GPU link carries the copy out and the NIC traffic' if a.shared_link else 'NIC traffic off the GPU link'}.\n")


def strong(a, kind="c2c-f32"):
    assumptions(a)
    layouts = {2: [False], 1: [True], 0: [False, True]}[a.transposes]
    for tr in layouts:
        name = "FFTW_MPI_TRANSPOSED_OUT (one transpose)" if tr else "default layout (two transposes)"
        print(f"ms per execute, {kind} n^3, {name}, N nodes x {a.gpus} GPUs")
        print(header("n^3 (array)"))
        for n in SIZES:
            row = []
            for N in NODES:
                P = N * a.gpus
                if P > n:
                    row.append("-")
                    continue
                r = execute(a, kind, n, N, a.gpus, tr)
                mark = ("" if fits(a, kind, n, N, a.gpus) else " †") + (" ‡" if small_messages(a, kind, n, N, a.gpus, tr) else "")
                row.append(fmt(r["total"]) + mark)
            print(f"| {n}^3 ({array_bytes(kind, n) / GB:,.0f} GB) | " + " | ".join(row) + " |")
        print()
    print(f"† three slab-sized buffers exceed {a.gpu_mem:g} GB per GPU: the plan takes the host route (not modelled).")
    print("‡ per-peer messages under 256 KiB in an exchange: latency may rule there (not modelled).")


def default_layout_points(a, kind):
    """(n, nodes, the modelled execute) in the default layout, for each size
    and node count with no more GPUs than planes."""
    for n in SIZES:
        for N in NODES:
            if N * a.gpus <= n:
                yield n, N, execute(a, kind, n, N, a.gpus)


def compare(a, kind="c2c-f32"):
    assumptions(a)
    c = fftw_core_seconds()
    print(f"The real FFTW MPI: {c:.3e} core-seconds per n^3 log2 n "
          f"({FFTW_MPI_N ** 3 / (FFTW_MPI_MS / 1e3 * FFTW_MPI_CORES) / 1e6:.2f} M points/s per core at {FFTW_MPI_N}^3), "
          f"{a.cores:g} cores per node, scaling perfectly.\n")
    print(f"ms per execute, {kind}, default layout (two transposes)")
    print("| n^3 | nodes | gpufftw, host to host | its GPU-resident part | real FFTW MPI, cores only "
          "| + its transposes on the same NICs | FFTW MPI (with NICs) / gpufftw |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n, N, r in default_layout_points(a, kind):
        f = fftw_mpi_ms(a, kind, n, N)
        fn = f + fftw_net_ms(a, kind, n, N)
        mark = ("" if fits(a, kind, n, N, a.gpus) else " †") + (" ‡" if small_messages(a, kind, n, N, a.gpus, False) else "")
        print(f"| {n}^3 | {N} | {fmt(r['total'])}{mark} | {fmt(r['dev'])} | {fmt(f)} | {fmt(fn)} | "
              f"{fn / r['total']:.0f}x |")
    print()
    print("GPU-resident part: step 1, the pack, both exchanges and step 3 without the copies over PCIe,")
    print("as a library whose data already sits on the GPUs would take them (how cuFFTMp and heFFTe are timed).")
    print("† does not fit on the GPUs (three slab-sized buffers): the plan would take the host route.")
    print("‡ per-peer messages under 256 KiB in an exchange: latency may rule there (not modelled).")


def breakdown(a, kind="c2c-f32"):
    assumptions(a)
    print(f"Phases of one execute, ms, {kind}, default layout (chunks k; the slower of each exchange's links)")
    print("| n^3 | nodes | slab GB | k | in + step 1 | exchange 1 (NVLink / network) | step 3 | exchange 2 + out | total | out bound by |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for n, N, r in default_layout_points(a, kind):
        print(f"| {n}^3 | {N} | {r['S'] / GB:.2f} | {r['k']} | {fmt(r['t_in'])} | {fmt(r['x1'])} "
              f"({fmt(r['nvl_part'])} / {fmt(r['net_part'])}) | {fmt(r['fft3'])} | {fmt(r['t_out'])} | "
              f"{fmt(r['total'])} | {r['bound']} |")


def check(a):
    """Model against the one-node measurements; asserts; exit status 1 on a miss."""
    bad = []

    def close(what, model, meas, rel):
        ok = abs(model - meas) <= rel * meas
        print(f"| {what} | {model:.2f} | {meas:.2f} | {100 * (model - meas) / meas:+.1f}% | {'ok' if ok else 'MISS'} |")
        if not ok:
            bad.append(what)

    # The defaults must be the fits of the measurements they name.
    (x_small, x_big) = (MEASURED_PHASES[("c2c-f32", 512)][1], MEASURED_PHASES[("r2c-f32", 1024)][1])
    b_small = array_bytes("c2c-f32", 512) / 4  # half a rank's slab crosses, 2 ranks
    b_big = array_bytes("r2c-f32", 1024) / 4
    rate = (b_big - b_small) / ((x_big - x_small) / 1e3) / GB
    lat = x_small - b_small / (rate * GB) * 1e3
    print(f"NCCL fit from the two exchanges: {rate:.0f} GB/s per GPU each way + {lat:.3f} ms "
          f"(defaults {a.nvlink:g} and {a.x_latency:g}); step-3 pass rates "
          f"{array_bytes('c2c-f32', 512) / 2 / 0.40e-3 / GB:.0f} and {array_bytes('r2c-f32', 1024) / 2 / 1.48e-3 / GB:.0f} GB/s "
          f"(default {a.gpu_pass:g}).\n")
    if not (abs(rate - a.nvlink) <= 0.03 * a.nvlink and abs(lat - a.x_latency) <= 0.03):
        bad.append("NCCL fit vs defaults")
    print("| one node, ms per execute | model | measured | model - measured | |")
    print("| --- | ---: | ---: | ---: | --- |")
    for (kind, n), m in MEASURED.items():
        close(f"{kind} {n}^3, 2 ranks on 2 GPUs", execute(a, kind, n, 1, 2)["total"], m[2], 0.02)
    for (kind, n), m in MEASURED_TRANSPOSED.items():
        close(f"{kind} {n}^3, 2 ranks, TRANSPOSED_OUT", execute(a, kind, n, 1, 2, True)["total"], m, 0.02)
    for (kind, n), m in MEASURED.items():
        close(f"{kind} {n}^3, 1 rank on 1 GPU", execute(a, kind, n, 1, 1)["total"], m[1], 0.05)
    for (kind, n), ph in MEASURED_PHASES.items():
        r = execute(a, kind, n, 1, 2)
        for name, model, meas in zip(["in + step 1", "exchange 1", "step 3", "exchange 2 + out"],
                                     [r["t_in"], r["x1"], r["fft3"], r["t_out"]], ph):
            close(f"{kind} {n}^3, 2 ranks: {name}", model, meas, 0.02 if meas > 5 else 0.06)
    for (kind, n), m in MEASURED_ONE_PROCESS.items():
        print(f"| ({kind} {n}^3, one process on both GPUs, not MPI) | | {m:.2f} | | reference |")
    f = fftw_core_seconds()
    print(f"\nThe real FFTW MPI, 2 ranks x 16 threads, c2c f32 512^3: {FFTW_MPI_MS:g} ms -> {f:.3e} core-s per n^3 log2 n.")
    # The model's own arithmetic: a pipeline of one chunk is the sum; of many,
    # the slower stage plus a chunk of the faster.
    assert abs(pipe(3.0, 1.0, 1) - 4.0) < 1e-12 and abs(pipe(8.0, 1.0, 8) - 8.125) < 1e-12
    assert chunks(16 * MIB) == 1 and chunks(1 << 30) == 8
    if bad:
        print("\nMISS: " + "; ".join(bad))
        return 1
    print("\nall within tolerance (2% for 2 ranks and the long phases, 6% for the short ones, 5% for one GPU)")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="model against the one-node measurements (asserts)")
    p.add_argument("--compare", action="store_true", help="against the real FFTW MPI and the GPU-resident part")
    p.add_argument("--breakdown", action="store_true", help="each phase of an execute")
    p.add_argument("--pcie-in", type=float, default=55.4, help="GB/s host to GPU, per GPU, pinned (measured)")
    p.add_argument("--pcie-out", type=float, default=55.2, help="GB/s GPU to host, per GPU, pinned (measured)")
    p.add_argument("--nvlink", type=float, default=305.0, help="GB/s per GPU each way through NCCL in a node (fitted)")
    p.add_argument("--x-latency", type=float, default=0.12, help="ms per NCCL exchange (fitted)")
    p.add_argument("--gpu-pass", type=float, default=1400.0, help="GB of slab per s, one read + write (fitted, step 3)")
    p.add_argument("--net", type=float, default=25.0, help="GB/s per NIC each way (assumed: 25 = 200 Gb/s, 50 = 400 Gb/s)")
    p.add_argument("--nics", type=float, default=8, help="NICs per node (assumed: 8, one per GPU, DGX-class)")
    p.add_argument("--gpus", type=int, default=8, help="GPUs per node, one rank each")
    p.add_argument("--gpu-mem", type=float, default=141.0, help="GB per GPU (H200 141, H100 80)")
    p.add_argument("--cores", type=float, default=128, help="CPU cores per node, for the real FFTW MPI")
    p.add_argument("--sizes", type=int, nargs="+", default=SIZES, help="n of the n^3 transforms (default 1024 2048 4096)")
    p.add_argument("--nodes", type=int, nargs="+", help="node counts (default 1 2 4 ... 64; --breakdown 1 8 64)")
    p.add_argument("--transposes", type=int, default=0, choices=[0, 1, 2],
                   help="1: FFTW_MPI_TRANSPOSED_OUT only, 2: default layout only, 0: both")
    p.add_argument("--no-shared-link", dest="shared_link", action="store_false",
                   help="NIC traffic does not cross the GPU's own PCIe link")
    a = p.parse_args()
    SIZES[:] = a.sizes
    if a.nodes:
        NODES[:] = a.nodes
    elif a.breakdown:
        NODES[:] = [1, 8, 64]
    if a.check:
        return check(a)
    if a.compare:
        compare(a)
    elif a.breakdown:
        breakdown(a)
    else:
        strong(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
