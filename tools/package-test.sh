#!/usr/bin/env bash
# package-test.sh BUILD_DIR [--system]: builds the Debian package from that
# build (CPack), checks its control fields, checks that apt can install it
# (apt-get --simulate install ./gpufftw_*.deb: its dependencies resolve),
# unpacks it into a clean prefix and runs the example program through the
# unpacked gpufftw-run, with the report. With --system (a throwaway root
# machine: CI) it installs the package with apt-get for real, runs the
# example through /usr/bin/gpufftw-run and the drop-in folder, builds a
# consumer with the system's pkg-config, and removes the package again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
system=${2:-}
prog="$build/compat/spectrogram"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }

if ! command -v dpkg-deb > /dev/null; then
  echo "package-test: skipped: no dpkg-deb here (the Debian package is built on Debian and Ubuntu)"
  exit 0
fi
rm -rf "$build/package"
cpack --config "$build/CPackConfig.cmake" -B "$build/package" > "$tmp/log" 2>&1 || fail "cpack: $(cat "$tmp/log")"
debs=("$build"/package/gpufftw_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || fail "no gpufftw_*.deb in $build/package"
echo "package-test: $(basename "$deb") ($(du -h "$deb" | cut -f1))"
dpkg-deb -f "$deb" Package Version Architecture Depends Suggests | sed 's/^/  /'
depends=$(dpkg-deb -f "$deb" Depends)
for need in libfftw3-single3 libfftw3-double3; do
  [[ $depends == *"$need"* ]] || fail "Depends lacks $need: $depends"
done
[[ $(dpkg-deb -f "$deb" Suggests) == *libcufft* ]] || fail "Suggests lacks cuFFT"
[[ $depends != *cuda* && $depends != *cufft* ]] || fail "CUDA is a hard dependency: $depends"
dpkg-deb -c "$deb" > "$tmp/contents"
grep -q ' \./usr/lib/gpufftw/dropin/libfftw3f\.so\.3$' "$tmp/contents" || fail "no drop-in folder in the package"

if command -v apt-get > /dev/null; then
  apt-get --simulate install "$deb" > "$tmp/log" 2>&1 || fail "apt-get --simulate install: $(cat "$tmp/log")"
  grep -q '^Inst gpufftw ' "$tmp/log" || fail "apt-get --simulate would not install it: $(cat "$tmp/log")"
fi

# Unpacked into a clean prefix: the tools find the library from their place.
dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/gpufftw-run" --report -- "$prog" 1 > "$tmp/out" 2>&1 || fail "unpacked gpufftw-run: $(cat "$tmp/out")"
grep -q "r2c f32 n=\[4096\] howmany=\[1024\]" "$tmp/out" || fail "unpacked gpufftw-run: no report: $(cat "$tmp/out")"
echo "package-test: unpacked: $(grep -c . "$tmp/out") lines, report:"
sed -n '/gpufftw report/,$p' "$tmp/out" | sed 's/^/  /'

if [ "$system" = --system ] && { [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null; }; then
  echo "package-test: not installed with apt-get: --system needs root and apt-get"
elif [ "$system" = --system ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" > "$tmp/log" 2>&1 || fail "apt-get install: $(cat "$tmp/log")"
  trap 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq gpufftw > /dev/null 2>&1; rm -rf "$tmp"' EXIT
  gpufftw-run --report -- "$prog" 1 > "$tmp/out" 2>&1 || fail "installed gpufftw-run: $(cat "$tmp/out")"
  grep -q "r2c f32 n=\[4096\] howmany=\[1024\]" "$tmp/out" || fail "installed gpufftw-run: no report: $(cat "$tmp/out")"
  [ "$(command -v gpufftw-run)" = /usr/bin/gpufftw-run ] || fail "gpufftw-run is $(command -v gpufftw-run)"
  LD_LIBRARY_PATH=/usr/lib/gpufftw/dropin GPUFFTW_REPORT=1 "$prog" 1 > "$tmp/out" 2>&1 || fail "drop-in: $(cat "$tmp/out")"
  grep -q "r2c f32 n=\[4096\] howmany=\[1024\]" "$tmp/out" || fail "installed drop-in: no report: $(cat "$tmp/out")"
  # shellcheck disable=SC2046
  cc "$root/tests/install/consumer.c" $(pkg-config --cflags --libs gpufftw) -lm -o "$tmp/consumer" && "$tmp/consumer" ||
    fail "consumer against the installed package"
  if command -v man > /dev/null; then
    for m in gpufftw-run gpufftw-compare gpufftw; do man -w "$m" > /dev/null || fail "man $m"; done
  fi
  echo "package-test: installed with apt-get; /usr/bin/gpufftw-run, the drop-in folder, pkg-config and the man pages work"
fi
echo "package-test: PASS"
