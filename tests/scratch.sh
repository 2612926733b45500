# Sourced by the tests' shell scripts: $tmp, a scratch folder removed at
# exit, and fail, which says what went wrong and ends the test.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# exits_0 WAY [VARIABLE=VALUE...] CMD...: CMD with the variables set, its
# output in $tmp/out; the test fails, naming WAY, unless it exits 0.
exits_0() {
  way=$1
  shift
  env "$@" > "$tmp/out" 2>&1 || fail "$way: exited $?: $(cat "$tmp/out")"
}
