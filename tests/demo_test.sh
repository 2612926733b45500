#!/bin/sh
# demo_test.sh BUILD_DIR SOURCE_DIR: tools/demo.sh tells the user what it is
# doing: a line as each step starts, with the first build's expected time
# and that packages come from apt-get, and the build's own progress passed
# through. cmake and dpkg are stand-ins here (every package installed, a
# build of one step), so nothing is installed or built; the example
# program then runs from BUILD_DIR, plain and through gpufftw.
set -u
build=$1
src=$2
. "$(dirname "$0")/scratch.sh"
mkdir "$tmp/bin"
cat > "$tmp/bin/cmake" <<'STUB'
#!/bin/sh
case "$1" in --build) echo "[1/1] Linking CXX shared library libgpufftw.so.1 (stand-in)" ;; esac
STUB
printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/dpkg"
chmod +x "$tmp/bin/cmake" "$tmp/bin/dpkg"
PATH="$tmp/bin:$PATH" GPUFFTW_BUILD="$build" "$src/tools/demo.sh" 1 > "$tmp/out" 2>&1 ||
  fail "demo.sh exited $?: $(cat "$tmp/out")"
cat "$tmp/out"
# The lines that must come, in this order.
grep -nE '^demo: 1/3 .*minutes.*apt-get|^setup: 1/3 packages|^setup: 2/3 configuring|^setup: 3/3 building .*minutes|^\[1/1\] Linking|^setup: built|^demo: 2/3|^demo: 3/3|^gpufftw report' \
  "$tmp/out" | cut -d: -f1 > "$tmp/lines"
[ "$(wc -l < "$tmp/lines")" = 9 ] || fail "not every step said, once each"
sort -n -c "$tmp/lines" 2> /dev/null || fail "the steps out of order"
echo PASS
