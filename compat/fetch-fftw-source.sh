#!/usr/bin/env bash
# Fetch FFTW 3.3.10's source (Debian source package "fftw3") into compat/work/,
# because the conformance suite we run against gpufftw (tests/check.pl driving
# tests/bench) only ships in the source, not in any binary package.
#
# Three situations, tried in this order:
#   1. compat/work/fftw3-3.3.10 already there (e.g. carried to the offline GPU
#      machine)                                    -> nothing to do.
#   2. pre-fetched files (fftw3_3.3.10*.orig.tar.gz [+ .debian.tar.xz, .dsc])
#      in compat/work/ or in the folder given by --from DIR / $FFTW_SOURCE_FROM
#                                                  -> unpack them, no network.
#   3. otherwise, as root with apt: install the tools, add a deb-src entry if
#      none serves fftw3, and `apt-get source fftw3`.
# In case 3 it also downloads Debian's runtime FFTW (libfftw3-double3,
# libfftw3-single3, and libfftw3-mpi3 for the MPI suite) and unpacks it to compat/work/fftw-runtime/, so a machine
# without FFTW installed (the GPU box) can still link and run the bench
# against a real FFTW when compat/work/ is carried there.
#
# Usage: compat/fetch-fftw-source.sh [--from DIR]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${GPUFFTW_COMPAT_WORK:-$here/work}
ver=3.3.10
src=$work/fftw3-$ver
from=${FFTW_SOURCE_FROM:-}

while [ $# -gt 0 ]; do
    case $1 in
        --from) from=$2; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "fetch-fftw-source: unknown argument $1" >&2; exit 2 ;;
    esac
done

mkdir -p "$work"

# --- 1. already there --------------------------------------------------------
if [ -f "$src/tests/check.pl" ] && [ -f "$src/configure" ]; then
    echo "fetch-fftw-source: $src already present, nothing to do"
    exit 0
fi

# Unpack a Debian source package without dpkg-source if need be: the GPU box
# (Ubuntu, offline) may lack dpkg-dev. Debian's patches do not touch tests/ or
# libbench2/, but we apply them anyway so the tree matches `apt-get source`.
unpack_offline() {
    # Called as an `if` condition, where set -e is off: every step says `|| return 1`.
    local dir=$1 orig deb dsc t=$work/.unpack.tmp
    orig=$(ls "$dir"/fftw3_"$ver"*.orig.tar.gz 2>/dev/null | head -n1 || true)
    dsc=$(ls "$dir"/fftw3_"$ver"*.dsc 2>/dev/null | head -n1 || true)
    deb=$(ls "$dir"/fftw3_"$ver"*.debian.tar.* 2>/dev/null | head -n1 || true)
    [ -n "$orig" ] || return 1
    rm -rf "$t" && mkdir -p "$t" || return 1
    if [ -n "$dsc" ] && command -v dpkg-source >/dev/null; then
        echo "fetch-fftw-source: dpkg-source -x $dsc"
        (cd "$t" && dpkg-source --no-check -x "$dsc" "fftw3-$ver" >/dev/null) || return 1
    else
        echo "fetch-fftw-source: unpacking $orig by hand"
        tar -xzf "$orig" -C "$t" || return 1
        [ -d "$t/fftw3-$ver" ] || mv "$t/fftw-$ver" "$t/fftw3-$ver" || return 1
        if [ -n "$deb" ]; then
            tar -xf "$deb" -C "$t/fftw3-$ver" || return 1
            local series=$t/fftw3-$ver/debian/patches/series p
            if [ -f "$series" ]; then
                while read -r p; do
                    case $p in ''|'#'*) continue ;; esac
                    patch -s -p1 -d "$t/fftw3-$ver" < "$t/fftw3-$ver/debian/patches/$p" || return 1
                done < "$series"
            fi
        fi
    fi
    rm -rf "$src" && mv "$t/fftw3-$ver" "$src" && rm -rf "$t"
}

# --- 2. pre-fetched tarballs ---------------------------------------------------
for d in ${from:+"$from"} "$work"; do
    if unpack_offline "$d"; then
        echo "fetch-fftw-source: unpacked into $src"
        exit 0
    fi
done

# --- 3. apt ----------------------------------------------------------------
if ! command -v apt-get >/dev/null; then
    echo "fetch-fftw-source: no source in $work and no apt-get; put" \
         "fftw3_$ver.orig.tar.gz (+ .debian.tar.xz/.dsc) in $work or use --from DIR" >&2
    exit 1
fi
if [ "$(id -u)" != 0 ]; then
    echo "fetch-fftw-source: need root for apt-get (or pre-fetched files, see --from)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive

has_fftw3_source() { [ -n "$(apt-cache showsrc fftw3 2>/dev/null)" ]; }

echo "fetch-fftw-source: installing what builds FFTW's bench (apt-get)"
apt-get update -qq
# dpkg-dev: dpkg-source for apt-get source; libfftw3-dev: the system FFTW the
# bench links to; gcc/make: configure + build of libbench2 and bench; perl:
# check.pl; xz-utils/patch: unpacking the Debian source package.
apt-get install -y -qq --no-install-recommends \
    dpkg-dev libfftw3-dev perl gcc make xz-utils patch ca-certificates >/dev/null

if ! has_fftw3_source; then
    # No deb-src entry serves fftw3: derive one from the distro's own deb entries.
    # deb822 (bookworm: debian.sources, noble: ubuntu.sources) -> sibling
    # *.sources file with Types: deb-src. Only the distro files: third-party
    # repos rarely publish Sources and would make apt-get update fail.
    for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/ubuntu.sources; do
        [ -f "$f" ] || continue
        out=/etc/apt/sources.list.d/gpufftw-compat-src.sources
        sed -E 's/^Types:.*/Types: deb-src/' "$f" > "$out"
        echo "fetch-fftw-source: wrote $out (deb-src from $f)"
    done
    # Classic one-line format: turn each active "deb ..." into "deb-src ...".
    if [ -f /etc/apt/sources.list ] && grep -qE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
        out=/etc/apt/sources.list.d/gpufftw-compat-src.list
        sed -nE 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' /etc/apt/sources.list > "$out"
        echo "fetch-fftw-source: wrote $out (deb-src from /etc/apt/sources.list)"
    fi
    apt-get update -qq
    has_fftw3_source || { echo "fetch-fftw-source: still no source for fftw3 after adding deb-src" >&2; exit 1; }
fi

cd "$work"
echo "fetch-fftw-source: downloading FFTW $ver's source into $work (apt-get source fftw3)"
# apt-get source as root warns about unsandboxed download; harmless.
apt-get source -qq fftw3 2>&1 | grep -v 'unsandboxed' || true
if [ ! -f "$src/tests/check.pl" ]; then
    echo "fetch-fftw-source: apt-get source did not produce $src (other FFTW version: $(ls -d "$work"/fftw3-* 2>/dev/null | tr '\n' ' '))" >&2
    exit 1
fi

# Runtime FFTW for machines that have none (see header comment).
echo "fetch-fftw-source: downloading Debian's runtime FFTW (apt-get download)"
mkdir -p "$work/debs" && rm -rf "$work/fftw-runtime"
(cd "$work/debs" && apt-get download -qq libfftw3-double3 libfftw3-single3 libfftw3-mpi3 2>&1 | grep -v unsandboxed || true)
for d in "$work"/debs/*.deb; do dpkg -x "$d" "$work/fftw-runtime"; done
echo "fetch-fftw-source: source in $src, runtime FFTW under $work/fftw-runtime"
