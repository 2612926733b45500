#!/bin/sh
# setuid_test.sh BUILD_DIR PROGRAM MARKER_DIR: a program linked to gpufftw
# and installed setuid root, run by an unprivileged user who sets
# GPUFFTW_FFTW_DIR to a folder of a library of theirs (MARKER_DIR's, whose
# constructor creates $MARKER_FILE): gpufftw reads no setting there, so
# that library is never loaded, as the loader ignores LD_PRELOAD. The same
# program without the setuid bit loads it (the test sees a load). Needs
# root, setpriv and a folder that keeps a setuid bit; else skipped.
set -u
build=$1 program=$2 marker_dir=$3
. "$(dirname "$0")/scratch.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: not root: a setuid program cannot be made"; exit 77; }
command -v setpriv > /dev/null || { echo "SKIP: no setpriv"; exit 77; }
chmod 755 "$tmp"
cp "$program" "$tmp/program"
as_nobody() {
  rm -f "$tmp/marker"
  setpriv --reuid=65534 --regid=65534 --clear-groups env GPUFFTW_FFTW_DIR="$marker_dir" MARKER_FILE="$tmp/marker" \
    "$tmp/program" > "$tmp/out" 2>&1
}
chmod 777 "$tmp"  # the marker is the unprivileged user's to create
chmod 755 "$tmp/program"
as_nobody
[ -e "$tmp/marker" ] || { echo "SKIP: the program did not load the library as an unprivileged user: $(cat "$tmp/out")"; exit 77; }
chmod 4755 "$tmp/program"
as_nobody
rc=$?
[ ! -e "$tmp/marker" ] || fail "setuid: GPUFFTW_FFTW_DIR's library was loaded with root's rights: $(cat "$tmp/out")"
grep -q "nosuid" /proc/mounts 2>/dev/null && ! grep -q "err " "$tmp/out" && {
  echo "SKIP: the setuid run printed no result (a nosuid mount?): $(cat "$tmp/out")"
  exit 77
}
[ $rc = 0 ] || fail "setuid: exit $rc: $(cat "$tmp/out")"
echo PASS
