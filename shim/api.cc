// The exported C API of fftw3.h, single and double precision from one
// source (api.inc). Compiled against the real fftw3.h, so every signature
// is checked against FFTW's own declarations.
#include <fftw3.h>

#include "fftw_strings.h"  // generated: the real library's version strings
#include "shim/api_impl.h"
#include "shim/memory.h"
#include "shim/trace.h"

#define GPUFFTW_STR_(x) #x
#define GPUFFTW_STR(x) GPUFFTW_STR_(x)

#pragma GCC visibility push(default)

#define X(name) fftwf_##name
#define R float
#define C fftwf_complex
#define P fftwf_plan
#define IODIM fftwf_iodim
#define IODIM64 fftwf_iodim64
#include "shim/api.inc"
#undef X
#undef R
#undef C
#undef P
#undef IODIM
#undef IODIM64

#define X(name) fftw_##name
#define R double
#define C fftw_complex
#define P fftw_plan
#define IODIM fftw_iodim
#define IODIM64 fftw_iodim64
#include "shim/api.inc"

#pragma GCC visibility pop
