"""The check of the Python interposition clients: the signal they transform
(dft_check.h's, rounded to float as the C clients hold it) and the relative
L2 error of a 256-point forward c2c of it against a direct DFT; run() does
the whole round on an array of 2 * N floats and a planned execute."""
import cmath
import struct

N = 256


def as_float(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def signal():
    return [complex(as_float(cmath.cos(0.37 * j).real + 0.01 * j), as_float(cmath.sin(0.11 * j * j / N).real - 0.5))
            for j in range(N)]


def error(y, x):
    ref = [sum(x[j] * cmath.exp(-2j * cmath.pi * (j * k % N) / N) for j in range(N)) for k in range(N)]
    return (sum(abs(u - v) ** 2 for u, v in zip(y, ref)) / sum(abs(v) ** 2 for v in ref)) ** 0.5


def run(a, execute):
    """Fills `a` (interleaved, indexable) with the signal, calls execute()
    and returns the error of what it left in `a`."""
    x = signal()
    for j, v in enumerate(x):
        a[2 * j], a[2 * j + 1] = v.real, v.imag
    execute()
    return error([complex(a[2 * k], a[2 * k + 1]) for k in range(N)], x)
