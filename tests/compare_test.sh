#!/bin/sh
# compare_test.sh BUILD_DIR: gpufftw-compare on a real program. Clean, it
# exits 0 with a table whose errors are FFTW's own, saying how each is
# normalized; with one output element perturbed (GPUFFTW_COMPARE_PERTURB=1)
# it exits 3, and both the table and the JSON Lines file name the plan as
# over tolerance.
set -u
build=$1
. "$(dirname "$0")/scratch.sh"
"$build/gpufftw-compare" -- "$build/compat/spectrogram" 1 > "$tmp/out" 2>&1 || fail "clean run exited $?: $(cat "$tmp/out")"
grep -q "gpufftw compare: 1 plans, 0 over tolerance" "$tmp/out" || fail "no clean table: $(cat "$tmp/out")"
# Each error column says how it is normalized (max may read below L2).
grep -qF "L2 = ||out - ref||_2 / ||ref||_2, max = max|out - ref| / max|ref|" "$tmp/out" ||
  fail "the table does not say how L2 and max are normalized: $(cat "$tmp/out")"
GPUFFTW_COMPARE_PERTURB=1 "$build/gpufftw-compare" --file "$tmp/c.jsonl" -- "$build/compat/spectrogram" 1 > "$tmp/out" 2>&1
status=$?
[ $status = 3 ] || fail "perturbed run exited $status, not 3: $(cat "$tmp/out")"
grep -q "r2c f32 n=\[4096\] howmany=\[1024\] out-of-place  OVER" "$tmp/out" || fail "table does not flag the plan: $(cat "$tmp/out")"
grep -q '"problem":"r2c f32 n=\[4096\] howmany=\[1024\] out-of-place".*"over":true' "$tmp/c.jsonl" || fail "file does not flag it: $(cat "$tmp/c.jsonl")"
# Every process of the program adds its plans to the file: a perturbed
# one followed by a clean one is still over, in the file and the status.
GPUFFTW_COMPARE_PERTURB=1 "$build/gpufftw-compare" --file "$tmp/two.jsonl" -- sh -c \
  "\"$build/compat/spectrogram\" 1 && GPUFFTW_COMPARE_PERTURB=0 \"$build/compat/spectrogram\" 1" > "$tmp/out" 2>&1
status=$?
[ $status = 3 ] || fail "a perturbed process then a clean one exited $status, not 3: $(cat "$tmp/out")"
[ "$(grep -c '"over":true' "$tmp/two.jsonl")" = 1 ] && [ "$(grep -c '"over":false' "$tmp/two.jsonl")" = 1 ] ||
  fail "the file does not hold both processes' plans: $(cat "$tmp/two.jsonl")"
echo PASS
