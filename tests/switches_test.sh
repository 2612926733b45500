#!/bin/sh
# switches_test.sh SOURCE_DIR SWITCHES_PROGRAM GPUFFTW_RUN: the list of
# switches in the code (core/switches.h, printed by tests/switches_main.cc)
# is the one list: every GPUFFTW_* variable the library or its tools read is
# in it, and each of it is in docs/how-it-works.md's table (with the same
# values and default), in man 7 gpufftw and in gpufftw-run --help.
set -eu
src=$1; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$2" > "$tmp/switches"
"$3" --help > "$tmp/help"
# What the code reads: a name passed whole to getenv or gpufftw's env
# readers, and what the tools read from the environment.
grep -rhoE '"GPUFFTW_[A-Z0-9_]+"' --include='*.cc' --include='*.h' --include='*.inc' --include='*.c' \
  --include='*.cu' --include='*.cuh' "$src/core" "$src/shim" "$src/dispatch" "$src/engine" "$src/mpi" \
  "$src/fallback" "$src/include" | tr -d '"' > "$tmp/read"
grep -hoE '\$\{?GPUFFTW_[A-Z0-9_]+' "$src/tools/gpufftw-run.in" "$src/tools/gpufftw-compare.in" | tr -d '${' >> "$tmp/read"
python3 - "$tmp/switches" "$tmp/read" "$src/docs/how-it-works.md" "$src/docs/man/gpufftw.7" "$tmp/help" <<'PY'
import re, sys
switches = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
names = [s[0] for s in switches]
read = sorted(set(open(sys.argv[2]).read().split()))
docs = {}
for line in open(sys.argv[3]):
    cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
    if line.startswith("| `GPUFFTW_") and len(cells) >= 4:
        docs[cells[0]] = cells
man = open(sys.argv[4]).read().replace("\\", "")
manned = set(re.findall(r"^\.B[IR]* (GPUFFTW_[A-Z0-9_]+)", man, re.M))
helped = {}
for line in open(sys.argv[5]):
    m = re.match(r"\s+(GPUFFTW_[A-Z0-9_]+)\s+(.*)$", line)
    if m:
        helped[m.group(1)] = m.group(2)
bad = []
for var in read:
    if var not in names:
        bad.append("%s: read by the code, not in core/switches.cc" % var)
for name, values, fallback, _ in switches:
    if name not in docs:
        bad.append("%s: not in docs/how-it-works.md's table" % name)
    elif docs[name][1:3] != [values, fallback]:
        bad.append("%s: docs/how-it-works.md says values '%s', default '%s'; the code '%s', '%s'"
                   % (name, docs[name][1], docs[name][2], values, fallback))
    if name not in manned:
        bad.append("%s: not in man 7 gpufftw (docs/man/gpufftw.7)" % name)
    if name not in helped:
        bad.append("%s: not in gpufftw-run --help" % name)
    elif helped[name] != "%s (default: %s)" % (values, fallback):
        bad.append("%s: gpufftw-run --help says '%s'; the code '%s (default: %s)'" % (name, helped[name], values, fallback))
for name in docs:
    if name not in names:
        bad.append("%s: in docs/how-it-works.md's table, not in core/switches.cc" % name)
for b in bad:
    print("FAIL: " + b)
print("%d switches, %d read by the code" % (len(switches), len(read)))
if not bad:
    print("PASS")
PY
