#!/bin/bash
# mpi-real-sweep.sh [NP...]: tools/mpi_real_sweep.cc built against the real
# FFTW MPI alone and run on each NP (default 2 3 4) ranks, a case that
# crashes noted and the sweep resumed after it; then the tally by kind and,
# for the c2r without transposed flags, by whether a rank holds other
# counts of the input's and the output's planes (docs/results/mpi.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX=1 "$here/mpi_real_sweep.cc" -o "$tmp/sweep" -lfftw3_mpi -lfftw3 -lm
for np in ${@:-2 3 4}; do
  out=$tmp/s$np.txt; : > "$out"; first=0
  total=$("$here/../tests/mpi/mpirun.sh" "$np" "$tmp/sweep" 0 1 0 2>&1 | sed -n 's/.*: \([0-9]*\) cases/\1/p')
  while [ "$first" -lt "$total" ]; do
    "$here/../tests/mpi/mpirun.sh" "$np" "$tmp/sweep" "$first" 1 >> "$out" 2>/dev/null || true
    last=$(grep "^case=" "$out" | tail -1 | sed -n 's/^case=\([0-9]*\) .*/\1/p'); last=${last:-$((first - 1))}
    [ $((last + 1)) -ge "$total" ] && break
    # Past the last case a filter (SWEEP_C2R_PLAIN) keeps, nothing more prints.
    [ -n "${SWEEP_C2R_PLAIN:-}" ] && [ "$last" -lt "$first" ] && break
    echo "case=$((last + 1)) np=$np CRASHED" >> "$out"; first=$((last + 2))
  done
done
cat "$tmp"/s*.txt | python3 -c '
import sys, collections
C = collections.Counter; tot, null, wrong, past, crashed = C(), C(), C(), C(), 0
plain = C()
for line in sys.stdin:
    if "CRASHED" in line: crashed += 1; continue
    d = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
    k = d["kind"]; tot[k] += 1
    if d["planned"] == "0": null[k] += 1; continue
    w = float(d["err"]) > 1e-8; o = int(d["over_after"]) > 0 or int(d["over_before"]) > 0
    wrong[k] += w; past[k] += o
    if k == "c2r" and d["tin"] == "0" and d["tout"] == "0":
        cnt = [int(x) for x in d["incnt"].split(",")]
        one = sum(c > 0 for c in cnt) == 1 and len(cnt) > 1
        plain[("planes differ" if d["rows_differ"] != "0" else "planes alike",
               ("all on one rank, " + ("in place" if d["inplace"] == "1" else "out of place")) if one and d["rows_differ"] == "0" else "",
               "wrong" if w else "right", "past the arrays" if o else "within")] += 1
for k in sorted(tot): print(f"{k}: {tot[k]} cases, {null[k]} NULL, {wrong[k]} wrong, {past[k]} past local_size")
print("c2r without transposed flags:")
for k in sorted(plain): print("  " + ", ".join(x for x in k if x) + f": {plain[k]}")
print(f"crashed: {crashed}")'
