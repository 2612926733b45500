#!/bin/sh
# fork_report_test.sh BUILD_DIR PROGRAM: tests/hazards/fork_report_main.c
# under GPUFFTW_REPORT=1, preloaded and through the drop-in folder: a
# forked child reports its own plans and executes, not the parent's it
# inherited, and one that used none reports nothing (two reports in all).
# The same of the comparison mode: two tables, and in its file the
# parent's plan once and the child's once.
set -u
build=$1 program=$2
. "$(dirname "$0")/scratch.sh"
check() {
  way=$1
  shift
  exits_0 "$way" GPUFFTW_REPORT=1 "$@"
  grep -q "^fork_report: right" "$tmp/out" || fail "$way: no result: $(cat "$tmp/out")"
  [ "$(grep -c '^gpufftw report' "$tmp/out")" = 2 ] || fail "$way: not 2 reports: $(cat "$tmp/out")"
  totals=$(grep '^  total' "$tmp/out" | awk '{print $2 "/" $3}' | sort | tr '\n' ' ')
  [ "$totals" = "1/1 1/3 " ] || fail "$way: totals (plans/executes) '$totals', not the child's 1/1 and the parent's 1/3: $(cat "$tmp/out")"
}
check preload "$build/gpufftw-run" -- "$program"
check drop-in LD_LIBRARY_PATH="$build/dropin" "$program"
exits_0 compare GPUFFTW_COMPARE=1 GPUFFTW_COMPARE_FILE="$tmp/compare.json" "$build/gpufftw-run" -- "$program"
[ "$(grep -c '^gpufftw compare:' "$tmp/out")" = 2 ] || fail "compare: not 2 tables: $(cat "$tmp/out")"
[ "$(grep -c '"executes":3,' "$tmp/compare.json")" = 1 ] && [ "$(grep -c '"executes":1,' "$tmp/compare.json")" = 1 ] &&
  [ "$(wc -l < "$tmp/compare.json")" = 2 ] || fail "compare: the file is not the parent's plan and the child's: $(cat "$tmp/compare.json")"
echo PASS
