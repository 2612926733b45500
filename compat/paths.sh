# Sourced by compat/build-bench.sh and compat/run-check.sh once they have
# set `here` to compat/: the repository, the work folder
# (GPUFFTW_COMPAT_WORK, default compat/work) with FFTW's source in it, and
# gpufftw's build folder (GPUFFTW_BUILD, default <repo>/build), absolute:
# it ends up in LD_PRELOAD / LD_LIBRARY_PATH of processes in other folders.
repo=$(cd "$here/.." && pwd)
work=${GPUFFTW_COMPAT_WORK:-$here/work}
src=$work/fftw3-3.3.10
gbuild=${GPUFFTW_BUILD:-$repo/build}
gbuild=$(cd "$gbuild" 2>/dev/null && pwd || echo "$gbuild")
