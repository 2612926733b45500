"""A Python program that opens FFTW with cffi in ABI mode (ffi.dlopen):
a 256-point c2c checked against a direct DFT in pure Python. Prints the
error and exits 0 only where it is right."""
import sys

import cffi

from dft_check import N, run

ffi = cffi.FFI()
ffi.cdef("""
    void *fftwf_malloc(size_t n);
    void fftwf_free(void *p);
    void *fftwf_plan_dft_1d(int n, float *in, float *out, int sign, unsigned flags);
    void fftwf_execute(void *p);
    void fftwf_destroy_plan(void *p);
""")
lib = ffi.dlopen("libfftw3f.so.3")
FFTW_FORWARD, FFTW_ESTIMATE = -1, 1 << 6

a = ffi.cast("float *", lib.fftwf_malloc(8 * N))
plan = lib.fftwf_plan_dft_1d(N, a, a, FFTW_FORWARD, FFTW_ESTIMATE)
if plan == ffi.NULL:
    sys.exit("cffi_client: NULL plan")
err = run(a, lambda: lib.fftwf_execute(plan))
lib.fftwf_destroy_plan(plan)
lib.fftwf_free(a)
print("cffi: err %.2g" % err)
sys.exit(0 if err < 1e-5 else 1)
