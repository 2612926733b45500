#!/usr/bin/env bash
# Run FFTW 3.3.10's own conformance suite (tests/check.pl driving tests/bench)
# against gpufftw in each way it can be used, and count problems passed/failed.
#
# Usage: compat/run-check.sh [--quick|--full] [--modes "reference preload relink dropin"]
#            [--precisions "double single"] [--configs "plain threads wisdom [callback]"]
#            [--seed N|random] [--no-isolate] [--no-build]
#
# Modes (how the bench reaches an FFTW):
#   reference  bench-system, no gpufftw at all: proves the harness (must pass).
#   preload    LD_PRELOAD=build/libgpufftw.so.1 bench-system
#   relink     bench-relink (linked with -lgpufftw only)
#   dropin     LD_LIBRARY_PATH=build/dropin bench-api (libfftw3.so.3 etc. = gpufftw)
# Configs (check.pl switches, on top of the level's random problem set below):
#   plain      none
#   threads    --nthreads=2 (fftw_init_threads/plan_with_nthreads/...)
#   wisdom     --validate-wisdom: each batch runs with "-o wisdom" (bench reads
#              wis.dat with fftw_import_wisdom_from_file before planning and
#              writes it with fftw_export_wisdom_to_file at exit), then again
#              with "-owisdom-only" (FFTW_WISDOM_ONLY): every plan must come
#              back from the wisdom just written, or bench fails.
#   callback   --threads_callback --nthreads=2 (fftw_threads_set_callback)
#   mpi1..mpi4 FFTW's MPI suite as its own `make check` runs it: check.pl --mpi
#              "mpirun -np N mpi-bench" (mpi-bench built by build-bench.sh where
#              mpicc and the real FFTW MPI are; gpufftw's MPI layer is
#              libgpufftw_mpi: preloaded with libgpufftw, relinked with
#              -lgpufftw_mpi -lgpufftw, or libfftw3(f)_mpi.so.3 in build/dropin).
#              mpi3t: np 3 with --nthreads=2 (full only). Added to the default
#              configs where mpi-bench was built. Env MPIRUN (default mpirun).
# Never --paranoid: that needs FFTW internals (tests/hook.c).
#
# Env: GPUFFTW_BUILD (default <repo>/build); GPUFFTW_PROOF_REGEX (default
# '^gpufftw:'): a line of the bench's output that shows gpufftw was loaded,
# with GPUFFTW_LOG=info (set for the bench processes in every mode unless
# GPUFFTW_LOG is set; in reference mode no such line may appear). Other
# GPUFFTW_* (GPUFFTW_MODE=gpu|cpu, ...) reach the bench unchanged.
# Exit status: 0 only if every mode x precision x config passed everything.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/paths.sh"
proof_re=${GPUFFTW_PROOF_REGEX:-'^gpufftw:'}

level=quick
configs_given=
modes="reference preload relink dropin"
precisions="double single"
configs=""
seed=""
isolate=1
build=1
while [ $# -gt 0 ]; do
    case $1 in
        --quick) level=quick; shift ;;
        --full) level=full; shift ;;
        --modes) modes=$2; shift 2 ;;
        --precisions) precisions=$2; shift 2 ;;
        --configs) configs=$2; configs_given=1; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --no-isolate) isolate=0; shift ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        *) echo "run-check: unknown argument $1" >&2; exit 2 ;;
    esac
done

# What quick / full run (check.pl switches per config). check.pl -r draws
# random problems: rank 1-4, sizes with factors up to 13 and total size up
# to --maxsize (default 60000), vector loops, split arrays, in/out of place,
# c2c, r2c/c2r and all r2r kinds; each -c count gives ~15 problems. The seed
# makes the problem set the same in every mode.
case $level in
    quick)
        # Bounded for CI: 24 runs (4 modes x 2 precisions x 3 configs) take
        # 2-3 min on 2 cores with the real FFTW. plain keeps FFTW_MEASURE
        # (what most programs use); the others use FFTW_ESTIMATE, so the real
        # FFTW's planning (gpufftw's fallback) stays cheap.
        small="--maxsize=20000"
        opts_plain="-r -c=10 $small"
        opts_threads="-r -c=15 $small --estimate --nthreads=2"
        opts_wisdom="-r -c=15 $small --estimate --validate-wisdom"
        opts_callback="-r -c=5 $small --estimate --threads_callback --nthreads=2"
        # MPI: what FFTW's own `make check` runs (-c=10, maxsize 10000) for
        # np 1-4: 1-7 s a run on 2 cores, 32 runs.
        opts_mpi="--mpi -r -c=10 --maxsize=10000"
        mpi_configs="mpi1 mpi2 mpi3 mpi4"
        configs=${configs:-"plain threads wisdom"}
        bench_timeout=120; run_timeout=900 ;;
    full)
        # FFTW's own `make check` (-r -c=30, FFTW_MEASURE, sizes to 60000,
        # threads, threads callback), plus its exhaustive small sets -0d
        # (rank-0 vector copies/r2r) and -1d (every 1-d size 1..100 and 2^k to
        # 4096, incl. the "size 0 is undoable" probe), plus wisdom on -r -c=30
        # (`make bigcheck` validates wisdom over -a, which takes hours).
        opts_plain="-r -c=30 -0d -1d"
        opts_threads="-r -c=30 --nthreads=2"
        opts_wisdom="-r -c=30 --validate-wisdom"
        opts_callback="-r -c=5 --threads_callback --nthreads=2"
        opts_mpi="--mpi -r -c=30 --maxsize=10000"
        mpi_configs="mpi1 mpi2 mpi3 mpi4 mpi3t"
        configs=${configs:-"plain threads wisdom callback"}
        bench_timeout=600; run_timeout=7200 ;;
esac
seed=${seed:-1}
[ "$seed" = random ] && seed=$RANDOM

cfg_opts() {
    case $1 in
        plain) echo "$opts_plain" ;;
        threads) echo "$opts_threads" ;;
        wisdom) echo "$opts_wisdom" ;;
        callback) echo "$opts_callback" ;;
        mpi[1-4]) echo "$opts_mpi" ;;
        mpi3t) echo "$opts_mpi --nthreads=2" ;;
        *) echo "run-check: unknown config $1" >&2; return 1 ;;
    esac
}

if [ $build = 1 ]; then
    "$here/fetch-fftw-source.sh"
    GPUFFTW_BUILD=$gbuild "$here/build-bench.sh"
fi
[ -f "$src/tests/check.pl" ] || { echo "run-check: no $src; run compat/fetch-fftw-source.sh" >&2; exit 2; }

# No system FFTW here (e.g. the GPU box): the bench links the Debian runtime
# unpacked by fetch-fftw-source.sh, and gpufftw must find its real FFTW there.
need_runpath=0
[ -f "$work/bench/fftw-libdir" ] && read -r need_runpath fftw_libdir < "$work/bench/fftw-libdir"
if [ "$need_runpath" = 1 ] && [ -z "${GPUFFTW_FFTW_DIR:-}" ]; then
    export GPUFFTW_FFTW_DIR=$fftw_libdir
    echo "run-check: no system FFTW; GPUFFTW_FFTW_DIR=$GPUFFTW_FFTW_DIR"
fi

# FFTW's MPI suite joins the default configs where mpi-bench was built.
if [ -z "$configs_given" ] && [ -x "$work/bench/double/mpi-bench-system" ]; then
    configs="$configs $mpi_configs"
fi

# Prerequisites of a mode x precision; prints the reason when missing.
mode_problem() {
    local mode=$1 prec=$2 p
    [ "$prec" = single ] && p=f || p=
    case $mode in
        reference) [ -x "$work/bench/$prec/bench-system" ] || echo "no bench-system" ;;
        preload) [ -e "$gbuild/libgpufftw.so.1" ] || echo "no $gbuild/libgpufftw.so.1" ;;
        relink)
            if [ ! -x "$work/bench/$prec/bench-relink" ]; then echo "no bench-relink (gpufftw not built?)"; return; fi
            # the one it loads (via its $ORIGIN-relative RUNPATH) must be ours
            local got
            got=$(awk '/libgpufftw\.so\.1 =>/ {print $3}' <<<"$(ldd "$work/bench/$prec/bench-relink")")
            [ -n "$got" ] && [ "$(realpath "$got")" = "$(realpath "$gbuild/libgpufftw.so.1" 2>/dev/null)" ] \
                || echo "bench-relink loads '$got', not $gbuild/libgpufftw.so.1 (rebuild it: drop --no-build)" ;;
        dropin)
            if [ ! -e "$gbuild/dropin/libfftw3$p.so.3" ]; then echo "no $gbuild/dropin/libfftw3$p.so.3"; return; fi
            # The loader must really pick the drop-in copies for the bench.
            local so
            for so in "libfftw3$p.so.3" "libfftw3${p}_threads.so.3"; do
                grep -q "$so => $gbuild/dropin/" <<<"$(LD_LIBRARY_PATH="$gbuild/dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
                    ldd "$work/bench/$prec/bench-api")" || echo "ldd: $so not resolved into $gbuild/dropin"
            done ;;
        *) echo "unknown mode" ;;
    esac
}

# A sanitizer build of gpufftw (GPUFFTW_SANITIZE) names the sanitizer's
# runtime, which must come first in the bench's initial library list.
san=""
[ -r "$gbuild/sanitizer-preload" ] && read -r san < "$gbuild/sanitizer-preload" || true
[ -z "$san" ] || echo "run-check: sanitizer build: $san preloaded first"

# The $program string check.pl gets (run by sh -c, so no spaces in paths).
# MPI configs: mpirun with the variables given to the ranks only (-x), not to
# mpirun itself.
program() {
    local mode=$1 prec=$2 cfg=${3:-} b=$work/bench/$2
    case $cfg in
        mpi*)
            local np=${cfg#mpi}; np=${np%t}
            local m="$here/bench-wrapper.sh $bench_timeout $repo/tests/mpi/mpirun.sh $np -x GPUFFTW_LOG=${GPUFFTW_LOG:-info}"
            case $mode in
                reference) echo "$m $b/mpi-bench-system" ;;
                preload) echo "$m -x LD_PRELOAD=$gbuild/libgpufftw_mpi.so.1:$gbuild/libgpufftw.so.1 $b/mpi-bench-system" ;;
                relink) echo "$m $b/mpi-bench-relink" ;;
                dropin) echo "$m -x LD_LIBRARY_PATH=$gbuild/dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $b/mpi-bench-api" ;;
            esac
            return ;;
    esac
    local w="$here/bench-wrapper.sh $bench_timeout env GPUFFTW_LOG=${GPUFFTW_LOG:-info}"
    local first=""
    [ -z "$san" ] || first="LD_PRELOAD=$san"
    case $mode in
        reference) echo "$w $b/bench-system" ;;
        preload) echo "$w LD_PRELOAD=${san:+$san:}$gbuild/libgpufftw.so.1 $b/bench-system" ;;
        relink) echo "$w $first $b/bench-relink" ;;
        dropin) echo "$w $first LD_LIBRARY_PATH=$gbuild/dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $b/bench-api" ;;
    esac
}

for cfg in $configs; do cfg_opts "$cfg" >/dev/null || exit 2; done
echo "run-check: level=$level seed=$seed; modes: $modes; precisions: $precisions; configs: $configs"
rows=()
failed_reports=()
bad=0
t_all=$SECONDS
for mode in $modes; do
    for prec in $precisions; do
        why=$(mode_problem "$mode" "$prec" | head -n1)
        if [ -n "$why" ]; then
            rows+=("$mode $prec - - - - - - - MISSING:${why// /_}")
            bad=1; echo "run-check: $mode/$prec: MISSING ($why)"; continue
        fi
        for cfg in $configs; do
            d=$work/runs/$mode/$prec/$cfg
            rm -rf "$d" && mkdir -p "$d"
            case $cfg in
                mpi*)
                    mb=mpi-bench-system
                    case $mode in relink) mb=mpi-bench-relink ;; dropin) mb=mpi-bench-api ;; esac
                    if [ ! -x "$work/bench/$prec/$mb" ] || { [ "$mode" != reference ] && [ ! -e "$gbuild/libgpufftw_mpi.so.1" ]; }; then
                        rows+=("$mode $prec $cfg - - - - - - MISSING:no_${mb}_or_libgpufftw_mpi")
                        bad=1; echo "run-check: $mode/$prec/$cfg: MISSING ($mb or libgpufftw_mpi.so.1)"; continue
                    fi ;;
            esac
            prog=$(program "$mode" "$prec" "$cfg")
            opts="-k -v $(cfg_opts "$cfg")"
            echo "perl -w -I$here -MCheckSeed=$seed $src/tests/check.pl $opts \"$prog\"" > "$d/command"
            echo "run-check: $mode/$prec/$cfg ..."
            t0=$SECONDS
            rc=0
            # check.pl gets -k (keep going) so every batch runs and we count
            # them all; it writes wis.dat into its cwd, hence one dir per run.
            (cd "$d" && timeout -k 10 "$run_timeout" \
                perl -w -I"$here" -MCheckSeed="$seed" "$src/tests/check.pl" $opts "$prog" \
                > check.log 2>&1) || rc=$?
            iso=""; [ $isolate = 1 ] && iso=--isolate
            sum=$(cd "$d" && perl -w "$here/check-summary.pl" check.log $iso --report report.txt) \
                || sum="total=0 pass=0 fail=0 notrun=0 batchfail=0 incomplete=1"
            dt=$((SECONDS - t0))
            total=0 pass=0 fail=0 notrun=0 batchfail=0 incomplete=1
            eval "$sum"   # sets total pass fail notrun batchfail incomplete
            [ $rc = 0 ] || incomplete=1   # timeout of the whole check.pl, or perl error
            # gpufftw in the loop: lines matching $proof_re / bench processes
            nproof=$(grep -cE "$proof_re" "$d/check.log" || true)
            nproc_=$(grep -c '^Executing "' "$d/check.log" || true)
            if [ "$mode" = reference ]; then
                proof="0/$nproc_"; [ "$nproof" = 0 ] || proof="UNEXPECTED:$nproof/$nproc_"
            else
                proof="$nproof/$nproc_"; [ "$nproof" -gt 0 ] || proof="NONE:0/$nproc_"
            fi
            status=PASS
            if [ "$fail" != 0 ] || [ "$notrun" != 0 ] || [ "$batchfail" != 0 ] \
               || [ "$incomplete" != 0 ] || [ "$total" = 0 ]; then status=FAIL; fi
            case $proof in NONE*|UNEXPECTED*) status=FAIL ;; esac
            [ $status = PASS ] || { bad=1; failed_reports+=("$mode/$prec/$cfg:$d"); }
            [ "$incomplete" = 0 ] || status="$status(incomplete)"
            fail=$((fail + batchfail))
            rows+=("$mode $prec $cfg $total $pass $fail $notrun $proof ${dt}s $status")
            echo "run-check: $mode/$prec/$cfg: $sum gpufftw-lines=$nproof ${dt}s $status"
        done
    done
done

echo
echo "=== FFTW 3.3.10 check.pl ($level, seed $seed) against gpufftw, $((SECONDS - t_all))s total"
for cfg in $configs; do echo "    $cfg: check.pl $(cfg_opts "$cfg")"; done
fmt="%-10s %-9s %-9s %8s %6s %6s %6s %13s %7s  %s\n"
# shellcheck disable=SC2059
printf "$fmt" MODE PRECISION CONFIG PROBLEMS PASS FAIL NOTRUN GPUFFTW-LINES TIME STATUS
for r in "${rows[@]}"; do
    # shellcheck disable=SC2059,SC2086
    printf "$fmt" $r
done
if [ ${#failed_reports[@]} -gt 0 ]; then
    echo
    echo "=== failures (full details in each report.txt; command to replay in 'command')"
    for fr in "${failed_reports[@]}"; do
        d=${fr#*:}
        echo "--- ${fr%%:*}  ($d)"
        [ -s "$d/report.txt" ] && head -n 40 "$d/report.txt"
        if ! grep -qE "$proof_re" "$d/check.log" && [ "${fr%%/*}" != reference ]; then
            echo "no line matching /$proof_re/ in the bench output: was gpufftw loaded? (GPUFFTW_LOG=info was set)"
        fi
    done
fi
exit $bad
