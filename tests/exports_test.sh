#!/bin/sh
# exports_test.sh LIBGPUFFTW FFTW_LIBDIR
# gpufftw must export exactly the public API of the real FFTW libraries
# (double, single and their threads libraries: every name fftw3.h declares
# that they define, and their legacy Fortran names) plus gpufftw_*, and
# dlsym and dlvsym, which answer lookups of FFTW names with gpufftw's
# (shim/interpose/dlsym.cc).
set -eu
lib="$1"; dir="$2"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for l in libfftw3.so.3 libfftw3f.so.3 libfftw3_threads.so.3 libfftw3f_threads.so.3; do
  nm -D --defined-only "$dir/$l" | awk '{print $3}'
done | sort -u > "$tmp/real_all"
hdr=$(echo '#include <fftw3.h>' | ${CC:-cc} -E -P -x c - | grep -oE '\bfftwf?_[a-z0-9_]+' | sort -u)
{ echo "$hdr"; grep -E '^[sd]fftw_' "$tmp/real_all"; } | sort -u | comm -12 - "$tmp/real_all" > "$tmp/expected"
nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^gpufftw_' | sort -u > "$tmp/ours_all"
grep -qx dlsym "$tmp/ours_all" && grep -qx dlvsym "$tmp/ours_all" || { echo "dlsym and dlvsym not exported"; exit 1; }
grep -vx 'dlv\{0,1\}sym' "$tmp/ours_all" > "$tmp/ours"
missing=$(comm -23 "$tmp/expected" "$tmp/ours"); unexpected=$(comm -13 "$tmp/expected" "$tmp/ours")
echo "real FFTW public exports: $(wc -l < "$tmp/expected"); gpufftw's FFTW exports: $(wc -l < "$tmp/ours");" \
     "gpufftw_* extension: $(nm -D --defined-only "$lib" | grep -c ' gpufftw_')"
[ -z "$missing" ] || { echo "missing from gpufftw:"; echo "$missing"; }
[ -z "$unexpected" ] || { echo "exported by gpufftw but not public in FFTW:"; echo "$unexpected"; }
[ -z "$missing$unexpected" ]
