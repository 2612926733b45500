#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR: installs the build into a fresh
# prefix, moves that prefix elsewhere (nothing installed may lean on the
# build folder or on where it was installed), then checks every file the
# install promises, the three ways in from the installed paths (the example
# program with the report, the drop-in folder's RUNPATH, gpufftw-compare),
# both tools' --help, the man pages, and a consumer program built against
# the installed tree with pkg-config and with find_package(gpufftw).
set -u
build=$1
src=$2
. "$(dirname "$0")/scratch.sh"
prog="$build/compat/spectrogram"

cmake --install "$build" --prefix "$tmp/installed" > "$tmp/log" 2>&1 || fail "cmake --install: $(cat "$tmp/log")"
mv "$tmp/installed" "$tmp/p"
p=$tmp/p
for f in lib/libgpufftw.so lib/libgpufftw.so.1 include/gpufftw/gpufftw.h \
    lib/gpufftw/dropin/libfftw3.so.3 lib/gpufftw/dropin/libfftw3f.so.3 \
    lib/gpufftw/dropin/libfftw3_threads.so.3 lib/gpufftw/dropin/libfftw3f_threads.so.3 \
    lib/gpufftw/dropin/libfftw3_omp.so.3 lib/gpufftw/dropin/libfftw3f_omp.so.3 \
    bin/gpufftw-run bin/gpufftw-compare share/man/man1/gpufftw-run.1 share/man/man1/gpufftw-compare.1 \
    share/man/man7/gpufftw.7 lib/pkgconfig/gpufftw.pc lib/cmake/gpufftw/gpufftwConfig.cmake \
    lib/cmake/gpufftw/gpufftwConfigVersion.cmake lib/cmake/gpufftw/gpufftwTargets.cmake; do
  [ -e "$p/$f" ] || fail "not installed: $f ($(cd "$p" && find . | sort | tr '\n' ' '))"
done
for f in bin/gpufftw-run bin/gpufftw-compare lib/pkgconfig/gpufftw.pc lib/cmake/gpufftw/*.cmake; do
  ! grep -q "$build" "$p/"$f || fail "$f names the build folder"
  ! grep -q "$tmp/installed" "$p/"$f || fail "$f names the place it was installed to"
done
echo "installed: $(cd "$p" && find . -type f -o -type l | sort | tr '\n' ' ')"

# Both tools: --help, and the library they preload is the installed one.
for t in gpufftw-run gpufftw-compare; do
  "$p/bin/$t" --help > "$tmp/help" 2>&1 || fail "$t --help exited $?"
  grep -q "^usage: $t " "$tmp/help" || fail "$t --help: $(cat "$tmp/help")"
done
# A sanitizer build's tools put the sanitizer's runtime first; programs
# built without the sanitizer need it preloaded to load that library.
san=$(cat "$build/sanitizer-preload" 2>/dev/null || true)
want="${san:+$san:}$p/lib/libgpufftw.so.1"
got=$("$p/bin/gpufftw-run" -- sh -c 'echo "$LD_PRELOAD"')
[ "$got" = "$want" ] || fail "installed gpufftw-run preloads $got"
# Called through a symbolic link elsewhere, too.
ln -s "$p/bin/gpufftw-run" "$tmp/gr"
got=$("$tmp/gr" -- sh -c 'echo "$LD_PRELOAD"')
[ "$got" = "$want" ] || fail "gpufftw-run through a link preloads $got"

# The example program: preloaded by the installed gpufftw-run, with the report.
"$p/bin/gpufftw-run" --report -- "$prog" 1 > "$tmp/out" 2>&1 || fail "gpufftw-run --report exited $?: $(cat "$tmp/out")"
grep -q "gpufftw report" "$tmp/out" || fail "no report: $(cat "$tmp/out")"
grep -q "r2c f32 n=\[4096\] howmany=\[1024\]" "$tmp/out" || fail "report lacks the plan: $(cat "$tmp/out")"
echo "preload: $(grep -A3 'gpufftw report' "$tmp/out" | tr -s ' ' | tr '\n' '|')"

# The drop-in folder: its RUNPATH reaches the installed libgpufftw.so.1.
for f in "$p"/lib/gpufftw/dropin/*.so.3; do
  readelf -d "$f" | grep -Eq 'R(UN)?PATH.*\[\$ORIGIN/\.\./\.\.\]' || fail "$f: $(readelf -d "$f" | grep -E 'R(UN)?PATH')"
done
LD_LIBRARY_PATH="$p/lib/gpufftw/dropin" ldd "$prog" > "$tmp/ldd" 2>&1
grep -q "libgpufftw.so.1 => $p/lib/gpufftw/dropin/../../libgpufftw.so.1" "$tmp/ldd" ||
  grep -q "libgpufftw.so.1 => $p/lib/libgpufftw.so.1" "$tmp/ldd" || fail "drop-in does not reach the installed library: $(cat "$tmp/ldd")"
LD_LIBRARY_PATH="$p/lib/gpufftw/dropin" GPUFFTW_REPORT=1 "$prog" 1 > "$tmp/out" 2>&1 || fail "drop-in exited $?: $(cat "$tmp/out")"
grep -q "r2c f32 n=\[4096\] howmany=\[1024\]" "$tmp/out" || fail "drop-in: no report: $(cat "$tmp/out")"

# Comparison from the installed path.
"$p/bin/gpufftw-compare" -- "$prog" 1 > "$tmp/out" 2>&1 || fail "gpufftw-compare exited $?: $(cat "$tmp/out")"
grep -q "gpufftw compare: 1 plans, 0 over tolerance" "$tmp/out" || fail "gpufftw-compare: $(cat "$tmp/out")"

# The man pages render without warnings (where man is installed).
if command -v man > /dev/null; then
  for m in man1/gpufftw-run.1 man1/gpufftw-compare.1 man7/gpufftw.7; do
    w=$(MANWIDTH=80 man --warnings -l "$p/share/man/$m" 2>&1 > /dev/null)
    [ -z "$w" ] || fail "man $m: $w"
  done
fi

# A consumer project: pkg-config ...
if command -v pkg-config > /dev/null; then
  flags=$(PKG_CONFIG_PATH="$p/lib/pkgconfig" pkg-config --cflags --libs gpufftw) || fail "pkg-config gpufftw"
  # shellcheck disable=SC2086
  ${CC:-cc} "$src/tests/install/consumer.c" $flags -lm -o "$tmp/consumer_pc" > "$tmp/log" 2>&1 ||
    fail "cc consumer.c $flags: $(cat "$tmp/log")"
  # It starts as built: the rpath in gpufftw.pc's Libs finds the prefix.
  LD_PRELOAD="$san" "$tmp/consumer_pc" > "$tmp/out" 2>&1 || fail "pkg-config consumer: $(cat "$tmp/out")"
  ldd "$tmp/consumer_pc" | grep -q "libgpufftw.so.1 => $p/lib/.*libgpufftw.so.1" ||
    fail "pkg-config consumer does not load the installed library: $(ldd "$tmp/consumer_pc")"
  echo "pkg-config ($flags): $(cat "$tmp/out")"
else
  fail "pkg-config not found"
fi
# ... and find_package(gpufftw) with the imported target gpufftw::gpufftw.
gen=""
command -v ninja > /dev/null && gen="-G Ninja"
# shellcheck disable=SC2086
cmake -S "$src/tests/install" -B "$tmp/cb" $gen -DCMAKE_PREFIX_PATH="$p" > "$tmp/log" 2>&1 &&
  cmake --build "$tmp/cb" > "$tmp/log" 2>&1 || fail "find_package consumer: $(cat "$tmp/log")"
LD_PRELOAD="$san" "$tmp/cb/consumer" > "$tmp/out" 2>&1 || fail "find_package consumer: $(cat "$tmp/out")"
ldd "$tmp/cb/consumer" | grep -q "libgpufftw.so.1 => $p/lib/libgpufftw.so.1" ||
  fail "find_package consumer does not load the installed library: $(ldd "$tmp/cb/consumer")"
echo "find_package: $(cat "$tmp/out")"
echo PASS
