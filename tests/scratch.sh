# Sourced by the tests' shell scripts: $tmp, a scratch folder removed at
# exit, and fail, which says what went wrong and ends the test.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
