#!/usr/bin/env bash
# Build FFTW 3.3.10's test driver tests/bench (double and single precision)
# WITHOUT building FFTW: configure only for config.h, build libbench2, compile
# tests/{bench,fftw-bench}.c and link them dynamically against an existing
# FFTW ABI (the system libfftw3*.so.3, or gpufftw).
#
# Output, per precision P in double single, in compat/work/bench/P/:
#   bench-system  original tests/hook.c, linked to the system libfftw3(f) +
#                 _threads. Uses FFTW internals through hook.c, so only the
#                 real FFTW can satisfy it: reference runs and LD_PRELOAD mode.
#   bench-api     compat/api-only-hook.c instead (public API only), linked to
#                 the system libs; run with LD_LIBRARY_PATH=build/dropin for
#                 drop-in mode.
#   bench-relink  same objects linked to -lgpufftw ONLY (RUNPATH to build/,
#                 relative to $ORIGIN so the tree can be moved/carried).
#                 Skipped when build/libgpufftw.so is not there yet.
#   mpi-bench-{system,api,relink}  the same three for FFTW's MPI test driver
#                 mpi/mpi-bench, where mpicc and the real FFTW MPI are found.
#
# Env: GPUFFTW_BUILD (default <repo>/build), FFTW_LIBDIR (dir holding the
# system libfftw3.so.3 etc.; default: ldconfig, else compat/work/fftw-runtime
# unpacked by fetch-fftw-source.sh), CC (default gcc), JOBS.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/paths.sh"
CC=${CC:-gcc}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Plain, portable flags: binaries built here may be carried to another machine.
BENCH_CFLAGS=${BENCH_CFLAGS:-"-O2 -g"}

die() { echo "build-bench: $*" >&2; exit 1; }
[ -f "$src/tests/bench.c" ] || die "no FFTW source in $src; run compat/fetch-fftw-source.sh first"

# --- where the real (system) FFTW lives ----------------------------------------
# We link to the versioned files (libfftw3.so.3) by full path, so only the
# runtime packages are needed, not libfftw3-dev's .so symlinks; headers come
# from the FFTW source (api/fftw3.h).
find_libdir() {
    local d
    if [ -n "${FFTW_LIBDIR:-}" ]; then echo "$FFTW_LIBDIR"; return; fi
    d=$(awk '/libfftw3\.so\.3 .*x86-64/ {print $NF; exit}' <<<"$(ldconfig -p 2>/dev/null)")
    if [ -n "$d" ]; then dirname "$d"; return; fi
    d=$(ls -d "$work"/fftw-runtime/usr/lib/*/ 2>/dev/null | head -n1 || true)
    [ -n "$d" ] && (cd "$d" && pwd)
}
libdir=$(find_libdir || true)
[ -n "$libdir" ] && [ -e "$libdir/libfftw3.so.3" ] && [ -e "$libdir/libfftw3f.so.3" ] \
    || die "no system FFTW (libfftw3.so.3, libfftw3f.so.3) found; install libfftw3-dev or set FFTW_LIBDIR"
echo "build-bench: system FFTW from $libdir"
# Libs outside the loader's default path need a RUNPATH. RUNPATH (not RPATH)
# is what we want: LD_LIBRARY_PATH=build/dropin still wins over it.
need_runpath=1
grep -q " => $libdir/libfftw3.so.3\$" <<<"$(ldconfig -p 2>/dev/null)" && need_runpath=0
# run-check.sh reads this: where there is no system FFTW it points gpufftw's
# fallback there too (GPUFFTW_FFTW_DIR).
mkdir -p "$work/bench"
echo "$need_runpath $libdir" > "$work/bench/fftw-libdir"

check_needed() {  # binary, then sonames that must be DT_NEEDED
    local bin=$1; shift
    local needed; needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    for so in "$@"; do
        grep -qx "$so" <<<"$needed" || die "$bin: $so is not a DT_NEEDED ($(echo $needed))"
    done
    # Dynamic, not static: no FFTW function may be defined inside the binary.
    if nm --defined-only "$bin" | grep -qE ' [TDB] fftwf?_(plan|execute|init|malloc|free|destroy|export|import)'; then
        die "$bin defines fftw_* functions itself (static FFTW linked in?)"
    fi
    local deps; deps=$(ldd "$bin")
    if grep -q 'not found' <<<"$deps"; then die "$bin: $(grep 'not found' <<<"$deps")"; fi
}

for prec in double single; do
    case $prec in
        double) p=""; conf_extra="" ;;
        single) p="f"; conf_extra="--enable-single" ;;
    esac
    bdir=$work/build-$prec
    out=$work/bench/$prec
    mkdir -p "$bdir" "$out"

    # 1. configure: only for config.h and libbench2/Makefile. No fortran/doc/
    #    SIMD: nothing of FFTW itself gets compiled.
    conf_args="--enable-threads --disable-fortran --disable-doc $conf_extra"
    if [ ! -f "$bdir/config.h" ] || [ "$(cat "$bdir/.conf-args" 2>/dev/null)" != "$conf_args" ]; then
        echo "build-bench: configure $prec ($conf_args)"
        (cd "$bdir" && CC="$CC" CFLAGS="$BENCH_CFLAGS" "$src/configure" $conf_args \
             > configure.log 2>&1) || die "configure failed, see $bdir/configure.log"
        echo "$conf_args" > "$bdir/.conf-args"
    fi

    # 2. libbench2.a (the verifier: FFTW-independent).
    make -s -C "$bdir/libbench2" -j"$JOBS" libbench2.a > "$bdir/libbench2.log" 2>&1 \
        || die "make -C libbench2 failed, see $bdir/libbench2.log"

    # 3. the bench objects. -I$bdir: config.h; -I$src: "libbench2/...",
    #    "api/fftw3.h", "tests/fftw-bench.h" (and hook.c's kernel/ headers).
    cflags="$BENCH_CFLAGS -pthread -DHAVE_CONFIG_H -I$bdir -I$src"
    for f in bench fftw-bench hook; do
        $CC $cflags -c "$src/tests/$f.c" -o "$bdir/$f.o"
    done
    $CC $cflags -c "$here/api-only-hook.c" -o "$bdir/api-only-hook.o"

    common="$bdir/bench.o $bdir/fftw-bench.o"
    bench2=$bdir/libbench2/libbench2.a
    sys_libs="$libdir/libfftw3${p}_threads.so.3 $libdir/libfftw3${p}.so.3"
    rp=""
    if [ $need_runpath = 1 ]; then
        rp="-Wl,--enable-new-dtags,-rpath,\$ORIGIN/$(realpath --relative-to="$out" "$libdir")"
    fi

    # 4. bench-system and bench-api: dynamic against the system FFTW.
    $CC -pthread -o "$out/bench-system" $common "$bdir/hook.o" "$bench2" $sys_libs $rp -lm
    $CC -pthread -o "$out/bench-api" $common "$bdir/api-only-hook.o" "$bench2" $sys_libs $rp -lm
    for b in bench-system bench-api; do
        check_needed "$out/$b" "libfftw3${p}.so.3" "libfftw3${p}_threads.so.3"
    done

    # bench-api must import only the public API (what fftw3.h declares), since
    # that is all gpufftw exports. The header's names, via the preprocessor:
    public=$($CC -E -P -I"$src/api" "$src/api/fftw3.h" | grep -oE "\bfftw${p}_[A-Za-z0-9_]+" | sort -u)
    extra=$(nm -D --undefined-only "$out/bench-api" | awk '{print $NF}' | sed 's/@.*//' \
            | grep -E "^fftw${p}_" | sort -u | comm -23 - <(echo "$public") || true)
    [ -z "$extra" ] || die "bench-api ($prec) imports non-public FFTW symbols: $extra"

    # 5. bench-relink: the same objects against gpufftw alone.
    rm -f "$out/bench-relink"
    if [ -e "$gbuild/libgpufftw.so" ]; then
        $CC -pthread -o "$out/bench-relink" $common "$bdir/api-only-hook.o" "$bench2" \
            -L"$gbuild" -lgpufftw \
            -Wl,--enable-new-dtags,-rpath,"\$ORIGIN/$(realpath --relative-to="$out" "$gbuild")" -lm \
            || die "linking bench-relink ($prec) against $gbuild/libgpufftw.so failed (missing exports?)"
        check_needed "$out/bench-relink" libgpufftw.so.1
        if readelf -d "$out/bench-relink" | grep NEEDED | grep -q libfftw3; then
            die "bench-relink ($prec) has a direct libfftw3 dependency"
        fi
    else
        echo "build-bench: $gbuild/libgpufftw.so not there yet; skipping bench-relink ($prec)"
    fi
    echo "build-bench: $prec -> $(cd "$out" && ls bench-* | tr '\n' ' ')"

    # 6. FFTW's MPI test driver mpi/mpi-bench (mpi-bench.c + the same
    #    fftw-bench.o and libbench2), where MPI (mpicc) and the real FFTW MPI
    #    are here: mpi-bench-system (hook.c, the system libfftw3${p}_mpi:
    #    reference and preload), mpi-bench-api (api-only-hook.c, the same
    #    libraries: drop-in), mpi-bench-relink (-lgpufftw_mpi -lgpufftw only).
    mpicc=${MPICC:-mpicc}
    if ! command -v "$mpicc" >/dev/null || [ ! -e "$libdir/libfftw3${p}_mpi.so.3" ]; then
        echo "build-bench: no $mpicc or no $libdir/libfftw3${p}_mpi.so.3; skipping mpi-bench ($prec)"
        continue
    fi
    OMPI_CC=$CC $mpicc $cflags -I"$src/mpi" -c "$src/mpi/mpi-bench.c" -o "$bdir/mpi-bench.o"
    mpi_common="$bdir/mpi-bench.o $bdir/fftw-bench.o"
    mpi_sys="$libdir/libfftw3${p}_mpi.so.3 $sys_libs"
    OMPI_CC=$CC $mpicc -pthread -o "$out/mpi-bench-system" $mpi_common "$bdir/hook.o" "$bench2" $mpi_sys $rp -lm
    OMPI_CC=$CC $mpicc -pthread -o "$out/mpi-bench-api" $mpi_common "$bdir/api-only-hook.o" "$bench2" $mpi_sys $rp -lm
    for b in mpi-bench-system mpi-bench-api; do
        check_needed "$out/$b" "libfftw3${p}_mpi.so.3" "libfftw3${p}.so.3" "libfftw3${p}_threads.so.3"
    done
    mpublic=$(OMPI_CC=$CC $mpicc -E -P -I"$src/api" -I"$src/mpi" "$src/mpi/fftw3-mpi.h" \
              | grep -oE "\bfftw${p}_[A-Za-z0-9_]+" | sort -u)
    extra=$(nm -D --undefined-only "$out/mpi-bench-api" | awk '{print $NF}' | sed 's/@.*//' \
            | grep -E "^fftw${p}_" | sort -u | comm -23 - <(echo "$mpublic") || true)
    [ -z "$extra" ] || die "mpi-bench-api ($prec) imports non-public FFTW symbols: $extra"
    rm -f "$out/mpi-bench-relink"
    if [ -e "$gbuild/libgpufftw_mpi.so" ]; then
        OMPI_CC=$CC $mpicc -pthread -o "$out/mpi-bench-relink" $mpi_common "$bdir/api-only-hook.o" "$bench2" \
            -L"$gbuild" -lgpufftw_mpi -lgpufftw \
            -Wl,--enable-new-dtags,-rpath,"\$ORIGIN/$(realpath --relative-to="$out" "$gbuild")" -lm \
            || die "linking mpi-bench-relink ($prec) against $gbuild/libgpufftw_mpi.so failed (missing exports?)"
        check_needed "$out/mpi-bench-relink" libgpufftw_mpi.so.1 libgpufftw.so.1
        if readelf -d "$out/mpi-bench-relink" | grep NEEDED | grep -q libfftw3; then
            die "mpi-bench-relink ($prec) has a direct libfftw3 dependency"
        fi
    else
        echo "build-bench: $gbuild/libgpufftw_mpi.so not there yet; skipping mpi-bench-relink ($prec)"
    fi
    echo "build-bench: $prec -> $(cd "$out" && ls mpi-bench-* | tr '\n' ' ')"
done
