#!/bin/sh
# tool_errors_test.sh BUILD_DIR: each mistake on gpufftw-run's and
# gpufftw-compare's command lines gets one line on stderr that names it
# (and, for a misuse, points at --help) and the exit status a user can act
# on: 2 for a misuse, 127 for a program that is not there, 126 for one that
# cannot be run. A bad --mode never reaches the program.
set -u
build=$1
. "$(dirname "$0")/scratch.sh"
printf 'not a program\n' > "$tmp/data"
# expect STATUS WORDS TOOL ARGS...: the tool exits STATUS, prints nothing on
# stdout and one line on stderr that holds WORDS.
expect() {
  status=$1 words=$2 tool=$3
  shift 3
  "$build/$tool" "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  [ "$got" = "$status" ] || fail "$tool $*: exit $got, not $status: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$tool $*: wrote to stdout: $(cat "$tmp/out")"
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "$tool $*: not one line on stderr: $(cat "$tmp/err")"
  grep -qF -- "$words" "$tmp/err" || fail "$tool $*: no '$words' in: $(cat "$tmp/err")"
  echo "$tool $*: $status, $(cat "$tmp/err")"
}
for t in gpufftw-run gpufftw-compare; do
  expect 2 "$t: true is not an option: put -- before the command" $t true
  expect 2 "$t: unknown option --bogus; see $t --help" $t --bogus -- true
  expect 2 "$t: no command after --; see $t --help" $t --
  expect 2 "$t: no command: $t [OPTIONS] -- CMD [ARGS...]; see $t --help" $t
  expect 127 "$t: /nonexistent/app: no such file" $t -- /nonexistent/app
  expect 127 "$t: no-such-command-gpufftw: command not found" $t -- no-such-command-gpufftw
  expect 126 "$t: $tmp/data: not an executable file" $t -- "$tmp/data"
  # An empty name: no hint of a program in the working folder ("./").
  expect 127 "$t: : command not found" $t -- ''
  ! grep -q "not on PATH" "$tmp/err" || fail "$t -- '': a hint: $(cat "$tmp/err")"
done
expect 2 "gpufftw-run: --mode needs a value: auto, gpu or cpu; see gpufftw-run --help" gpufftw-run --mode
expect 2 "gpufftw-run: --mode fast is not auto, gpu or cpu; see gpufftw-run --help" gpufftw-run --mode fast -- true
expect 2 "gpufftw-run: --log needs a value: off, warn, info or debug" gpufftw-run --log
expect 2 "gpufftw-run: --log loud is not off, warn, info or debug" gpufftw-run --log loud -- true
expect 2 "gpufftw-compare: --every needs a value: a count from 1" gpufftw-compare --every
expect 2 "gpufftw-compare: --every 0 is not a count from 1" gpufftw-compare --every 0 -- true
expect 2 "gpufftw-compare: --file needs a file name" gpufftw-compare --file
expect 2 "gpufftw-compare: --html needs a file name" gpufftw-compare --html
# A missing library: named with the place looked in, or as the file the
# variable names. The installed form of each tool, copied out of its tree,
# looks in a lib folder beside it that is not there.
for t in gpufftw-run gpufftw-compare; do
  GPUFFTW_LIBRARY=/nope expect 2 "$t: GPUFFTW_LIBRARY names /nope, which is not a readable file" $t -- true
  GPUFFTW_LIBRARY=/tmp expect 2 "$t: GPUFFTW_LIBRARY names /tmp, which is not a readable file" $t -- true
  # LD_PRELOAD splits at blanks and colons: such a path would preload nothing.
  mkdir -p "$tmp/my lib"
  cp "$build/libgpufftw.so.1" "$tmp/my lib/"
  GPUFFTW_LIBRARY="$tmp/my lib/libgpufftw.so.1" expect 2 \
    "gpufftw-run: GPUFFTW_LIBRARY $tmp/my lib/libgpufftw.so.1: LD_PRELOAD cannot name a path with a blank or a colon" \
    $t -- true
  mkdir -p "$tmp/away/bin"
  cp "$build/generated/install/$t" "$tmp/away/bin/$t"
  "$tmp/away/bin/$t" -- true > "$tmp/out" 2> "$tmp/err" && fail "$t copied away: ran without its library"
  grep -qF "$t: no libgpufftw.so.1 in $tmp/away/bin/../lib, the library folder beside this script" "$tmp/err" ||
    fail "$t copied away: $(cat "$tmp/err")"
  echo "$t copied away: $(cat "$tmp/err")"
done
GPUFFTW_MPI_LIBRARY=/nope expect 2 "gpufftw-run: GPUFFTW_MPI_LIBRARY names /nope, which is not a readable file" gpufftw-run --mpi -- true
# A file that cannot be written is found out before the program runs, with
# the system's reason.
expect 2 "gpufftw-compare: --file /nonexistent/dir/f.json cannot be written: No such file or directory" \
  gpufftw-compare --file /nonexistent/dir/f.json -- touch "$tmp/ran"
[ ! -e "$tmp/ran" ] || fail "gpufftw-compare --file /nonexistent/dir/f.json ran the program"
# A folder, and one file named twice (the page would overwrite the lines the
# exit status is read from), and no temporary file for the lines: found out
# before the program runs.
mkdir -p "$tmp/folder"
expect 2 "gpufftw-compare: --html $tmp/folder is a folder, not a file" gpufftw-compare --html "$tmp/folder" -- touch "$tmp/ran"
expect 2 "gpufftw-compare: --file and --html name the same file, $tmp/same" \
  gpufftw-compare --file "$tmp/same" --html "$tmp/same" -- touch "$tmp/ran"
TMPDIR=/nonexistent expect 2 "gpufftw-compare: no temporary file for the comparison's lines (mktemp failed)" \
  gpufftw-compare -- touch "$tmp/ran"
[ ! -e "$tmp/ran" ] || fail "gpufftw-compare ran the program where its files could not be had"
# Good command lines still run the program, with what they set.
got=$("$build/gpufftw-run" --mode cpu --log info -- sh -c 'echo "$GPUFFTW_MODE $GPUFFTW_LOG"') ||
  fail "gpufftw-run --mode cpu --log info exited $?"
[ "$got" = "cpu info" ] || fail "gpufftw-run --mode cpu --log info: the program saw '$got'"
(cd "$build" && ./gpufftw-run -- true) || fail "gpufftw-run -- true exited $?"
echo PASS
