#!/bin/sh
# exports_test.sh LIBGPUFFTW_MPI FFTW_MPI_LIBDIR
# libgpufftw_mpi must export exactly the public part of the real
# libfftw3_mpi.so.3 and libfftw3f_mpi.so.3: every name fftw3-mpi.h declares
# that they define, and their Fortran 2003 wrappers (*_f03). Nothing else:
# the other ~56 names per precision they export are FFTW internals
# (fftw_mpi_dft_solve, fftw_mpi_mkdtensor, ...), which no program calls.
set -eu
lib="$1"; dir="$2"; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for l in libfftw3_mpi.so.3 libfftw3f_mpi.so.3; do
  nm -D --defined-only "$dir/$l" | awk '{print $3}'
done | sort -u > "$tmp/real_all"
cc=${MPICC:-mpicc}
hdr=$(echo '#include <fftw3-mpi.h>' | $cc -E -P -x c - | grep -oE '\bfftwf?_mpi_[a-z0-9_]+' | sort -u)
{ echo "$hdr"; grep -E '_f03$' "$tmp/real_all"; } | sort -u | comm -12 - "$tmp/real_all" > "$tmp/expected"
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u > "$tmp/ours"
missing=$(comm -23 "$tmp/expected" "$tmp/ours"); unexpected=$(comm -13 "$tmp/expected" "$tmp/ours")
echo "real FFTW MPI exports: $(wc -l < "$tmp/real_all"), of them public: $(wc -l < "$tmp/expected")" \
     "($(grep -c '_f03$' "$tmp/expected") Fortran 2003 wrappers); libgpufftw_mpi exports: $(wc -l < "$tmp/ours")"
[ -z "$missing" ] || { echo "missing from libgpufftw_mpi:"; echo "$missing"; }
[ -z "$unexpected" ] || { echo "exported by libgpufftw_mpi but not public in FFTW MPI:"; echo "$unexpected"; }
# It needs the program's MPI and gpufftw, and never the real FFTW MPI or the
# real serial FFTW (those are opened at run time, in the program's namespace).
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "libgpufftw_mpi needs: $needed"
case " $needed " in *" libgpufftw.so.1 "*) ;; *) echo "does not need libgpufftw.so.1"; exit 1 ;; esac
case " $needed " in *" libfftw3"*) echo "links a libfftw3* itself"; exit 1 ;; esac
[ -z "$missing$unexpected" ] && echo PASS
