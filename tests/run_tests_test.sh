#!/bin/sh
# run_tests_test.sh SOURCE_DIR: tools/run-tests.sh says each phase as it
# starts and ends with one line per phase and the verdict; a failing phase
# does not stop the rest, and anything a phase writes into HOME fails the
# run. Its tools are stand-ins here (a copy of the tree's script beside
# them), so nothing is built or run.
set -u
src=$1
. "$(dirname "$0")/scratch.sh"
mkdir -p "$tmp/tree/tools" "$tmp/tree/compat" "$tmp/tree/build" "$tmp/bin"
cp "$src/tools/run-tests.sh" "$tmp/tree/tools/"
: > "$tmp/tree/build/CMakeCache.txt"
for stub in tools/setup.sh tools/package-test.sh compat/run-check.sh; do
  printf '#!/bin/sh\necho "stand-in %s $*"\n' "$stub" > "$tmp/tree/$stub"
done
printf '#!/bin/sh\necho "stand-in ctest $*"\n' > "$tmp/bin/ctest"
# The sanitizer runs: TSan fails where STUB_FAIL=tsan; the fuzzer leaves a
# file in HOME where STUB_TRACE=1.
cat > "$tmp/tree/tools/run-sanitizers.sh" <<'STUB'
#!/bin/sh
echo "stand-in run-sanitizers $*"
[ "$1" != "${STUB_FAIL:-}" ] || exit 1
[ "$1" != fuzz ] || [ "${STUB_TRACE:-0}" != 1 ] || { mkdir -p "$HOME/.cache/gpufftw"; : > "$HOME/.cache/gpufftw/dispatch.txt"; }
STUB
chmod +x "$tmp/tree/tools/"*.sh "$tmp/tree/compat/run-check.sh" "$tmp/bin/ctest"
run() { env PATH="$tmp/bin:$PATH" TMPDIR="$tmp" "$@" "$tmp/tree/tools/run-tests.sh" > "$tmp/out" 2>&1; }
run env
status=$?
cat "$tmp/out"
[ "$status" = 0 ] || fail "run-tests.sh exited $status with every phase passing"
for p in build ctest "Debian package" check.pl ASan+UBSan TSan fuzz "no trace in HOME"; do
  [ "$(grep -c "^run-tests: phase [0-9]*: $p\$" "$tmp/out")" = 1 ] || fail "no line as the phase $p starts"
  grep -q "^  passed  $p (" "$tmp/out" || fail "no line at the end for the phase $p"
done
[ "$(tail -n 1 "$tmp/out")" = "run-tests: all 8 phases passed" ] || fail "the last line is not the verdict"
run env STUB_FAIL=tsan STUB_TRACE=1
status=$?
cat "$tmp/out"
[ "$status" = 1 ] || fail "run-tests.sh exited $status with two phases failing"
grep -q "^  FAILED  TSan (" "$tmp/out" || fail "TSan's failure not listed"
grep -q "^  passed  fuzz (" "$tmp/out" || fail "the phases after a failing one did not run"
grep -q "^  ~/.cache/gpufftw/dispatch.txt\$" "$tmp/out" || fail "the file written into HOME not named"
[ "$(tail -n 1 "$tmp/out")" = "run-tests: 2 of 8 phases failed: TSan, no trace in HOME" ] ||
  fail "the last line is not the verdict naming the phases that failed"
# compat/run-check.sh (the check.pl phase) passes on what fetching FFTW's
# source says: a download of minutes is never silent.
cp "$src/compat/run-check.sh" "$src/compat/paths.sh" "$tmp/tree/compat/"
printf '#!/bin/sh\necho "fetch-fftw-source: stand-in"\n' > "$tmp/tree/compat/fetch-fftw-source.sh"
printf '#!/bin/sh\n' > "$tmp/tree/compat/build-bench.sh"
chmod +x "$tmp/tree/compat/"*.sh
GPUFFTW_COMPAT_WORK="$tmp/work" "$tmp/tree/compat/run-check.sh" --quick > "$tmp/out" 2>&1
grep -q "^fetch-fftw-source: stand-in\$" "$tmp/out" || fail "run-check.sh hid what fetching FFTW's source said: $(cat "$tmp/out")"
echo PASS
