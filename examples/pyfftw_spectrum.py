"""The power spectrum of a noisy image with pyFFTW, whose FFTW3 calls
gpufftw serves when the interpreter runs under gpufftw-run:

    gpufftw-run --report -- python3 examples/pyfftw_spectrum.py

The script itself knows nothing of gpufftw. It checks its own result
against numpy's FFT and exits 1 if they differ."""
import sys

import numpy as np
import pyfftw

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
rng = np.random.default_rng(1)
image = pyfftw.empty_aligned((n, n), dtype="float32")
y, x = np.mgrid[0:n, 0:n]
image[:] = np.sin(2 * np.pi * 64 * x / n) + 0.5 * rng.standard_normal((n, n))

# One FFTW plan (fftwf_plan_guru_dft_r2c), executed on every frame.
rfft2 = pyfftw.builders.rfft2(image, threads=4)
for _ in range(10):
    spectrum = rfft2(image)
power = np.abs(spectrum) ** 2

ref = np.fft.rfft2(image.astype(np.float64))
err = np.linalg.norm(spectrum - ref) / np.linalg.norm(ref)
peak = np.unravel_index(np.argmax(power[:, 1:]), power[:, 1:].shape)
print(f"{n}x{n} r2c f32: strongest line at column {peak[1] + 1}, relative error against numpy {err:.2e}")
sys.exit(0 if err < 1e-5 and peak[1] + 1 == 64 else 1)
