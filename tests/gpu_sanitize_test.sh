#!/bin/sh
# gpu_sanitize_test.sh: tools/gpu-sanitize.py over a made-up ctest folder
# and a stand-in for compute-sanitizer that runs the test as it is, so its
# own logic is checked without a GPU: each verdict read from a test's exit
# and output, the environment set per tool, RUN_SERIAL tests after the
# rest, a timed-out test killed with what it started, the deadline, and
# the exit status.
set -u
command -v python3 > /dev/null || { echo "SKIP: no python3 here: gpu-sanitize.py not tested"; exit 77; }
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/scratch.sh"

# The stand-in: prints the tool's options (up to the test's absolute path)
# into the test's log, then runs the test.
cat > "$tmp/sanitizer" <<'EOF'
#!/bin/sh
options=
while [ "${1#/}" = "$1" ]; do options="$options $1"; shift; done
echo "options:$options"
exec "$@"
EOF
chmod +x "$tmp/sanitizer"

mkdir "$tmp/build"
cat > "$tmp/build/CTestTestfile.cmake" <<EOF
add_test(Clean "/bin/sh" "-c" "echo '========= ERROR SUMMARY: 0 errors'")
add_test(Errors "/bin/sh" "-c" "echo '========= ERROR SUMMARY: 2 errors'; exit 99")
add_test(NoCuda "/bin/sh" "-c" "echo '========= Target application terminated before first instrumented API call'")
add_test(Fails "/bin/sh" "-c" "exit 1")
add_test(Kernels/EverySize.F32/n2to9 "/bin/sh" "-c" "echo stride=\$GPUFFTW_TEST_SIZE_STRIDE; date +%s.%N > $tmp/sweep.t")
add_test(Kernels.OffsetArraysAndManyBlocks "/bin/sh" "-c" "echo points=\$GPUFFTW_TEST_MANY_POINTS")
add_test(Serial "/bin/sh" "-c" "date +%s.%N > $tmp/serial.t")
add_test(Hangs "/bin/sh" "-c" "sleep 300 & echo \$! > $tmp/child.pid; wait")
add_test(Large.Skips "/bin/true")
add_test(NotGpu "/bin/true")
set_tests_properties(Clean Errors NoCuda Fails Kernels/EverySize.F32/n2to9 Kernels.OffsetArraysAndManyBlocks Serial Hangs Large.Skips PROPERTIES LABELS gpu)
set_tests_properties(Serial PROPERTIES RUN_SERIAL TRUE)
EOF

run() {
  COMPUTE_SANITIZER="$tmp/sanitizer" python3 -B "$root/tools/gpu-sanitize.py" "$tmp/build" "$tmp/out" "$@" \
    > "$tmp/said" 2>&1
}
said() { grep -qF -- "$1" "$tmp/said" || fail "no '$1' in: $(cat "$tmp/said")"; }

run --tools memcheck,racecheck --jobs 4 --timeout 3 --only '^(Clean|Errors|NoCuda|Fails|Kernels|Serial|Hangs|Large)'
[ $? = 1 ] || fail "a run with errors and a timeout exited $?, not 1"
for tool in memcheck racecheck; do
  said "$tool Clean: PASS"
  said "$tool Errors: SANITIZER (errors 2"
  said "$tool NoCuda: NO CUDA"
  said "$tool Fails: TEST FAILED"
  said "$tool Hangs: TIMEOUT"
  said "compute-sanitizer $tool: 8 GPU tests, 2 errors or hazards; PASS 4, NO CUDA 1, SANITIZER 1, TEST FAILED 1, TIMEOUT 1, NOT RUN 0"
done
said "left out: Large.Skips (past 2^31 elements: skips here)"
grep -q "NotGpu" "$tmp/said" && fail "a test without the gpu label ran"
grep -qx "stride=17" "$tmp/out/sanitizer-racecheck-Kernels_EverySize.F32_n2to9.log" || fail "racecheck's sweep ran without the stride"
grep -qx "stride=" "$tmp/out/sanitizer-memcheck-Kernels_EverySize.F32_n2to9.log" || fail "memcheck's sweep ran with a stride"
grep -qx "points=40009" "$tmp/out/sanitizer-racecheck-Kernels.OffsetArraysAndManyBlocks.log" ||
  fail "racecheck's many-block batches ran at their whole size"
grep -qx "points=" "$tmp/out/sanitizer-memcheck-Kernels.OffsetArraysAndManyBlocks.log" ||
  fail "memcheck's many-block batches ran shrunk"
# The RUN_SERIAL test takes the device's memory: its out-of-memory API
# errors are not reported; the others' are.
grep -q "^options: --tool racecheck --error-exitcode 99 --report-api-errors no$" "$tmp/out/sanitizer-racecheck-Serial.log" ||
  fail "the RUN_SERIAL test ran with: $(head -1 "$tmp/out/sanitizer-racecheck-Serial.log")"
grep -q "^options: --tool racecheck --error-exitcode 99$" "$tmp/out/sanitizer-racecheck-Clean.log" ||
  fail "a test run with the rest ran with: $(head -1 "$tmp/out/sanitizer-racecheck-Clean.log")"
# The last tool's runs: the RUN_SERIAL test started after the rest ended.
python3 -c "import sys; sys.exit(float(open('$tmp/serial.t').read()) > float(open('$tmp/sweep.t').read()))" &&
  fail "the RUN_SERIAL test ran before the others"
# Killed, the child may stay a zombie until its new parent reaps it.
child=$(cat "$tmp/child.pid")
state=$(sed 's/.*) //' "/proc/$child/stat" 2>/dev/null | cut -c1)
[ -n "$state" ] && [ "$state" != Z ] && { kill "$child"; fail "the timed-out test's child $child still runs ($state)"; }

run --tools memcheck --jobs 1 --deadline 0 --only '^Clean$'
[ $? = 1 ] || fail "a run past its deadline exited $?, not 1"
said "memcheck Clean: NOT RUN (deadline)"

run --tools synccheck --jobs 2 --only '^(Clean|NoCuda|Fails)$'
[ $? = 0 ] || fail "a run of passes, no-CUDA tests and plain test failures exited $?, not 0: $(cat "$tmp/said")"
echo PASS
