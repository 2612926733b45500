"""A Python program that opens FFTW with ctypes, as scripts without pyFFTW
do: a 256-point c2c checked against a direct DFT in pure Python.
Prints the error and exits 0 only where it is right."""
import ctypes
import sys

from dft_check import N, run

lib = ctypes.CDLL("libfftw3f.so.3")
lib.fftwf_malloc.restype = ctypes.c_void_p
lib.fftwf_malloc.argtypes = [ctypes.c_size_t]
lib.fftwf_plan_dft_1d.restype = ctypes.c_void_p
lib.fftwf_plan_dft_1d.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_uint]
for name in ("fftwf_execute", "fftwf_destroy_plan", "fftwf_free"):
    getattr(lib, name).argtypes = [ctypes.c_void_p]
FFTW_FORWARD, FFTW_ESTIMATE = -1, 1 << 6

buf = lib.fftwf_malloc(8 * N)
a = (ctypes.c_float * (2 * N)).from_address(buf)
plan = lib.fftwf_plan_dft_1d(N, buf, buf, FFTW_FORWARD, FFTW_ESTIMATE)
if not plan:
    sys.exit("ctypes_client: NULL plan")
err = run(a, lambda: lib.fftwf_execute(plan))
lib.fftwf_destroy_plan(plan)
lib.fftwf_free(buf)
print("ctypes: err %.2g" % err)
sys.exit(0 if err < 1e-5 else 1)
