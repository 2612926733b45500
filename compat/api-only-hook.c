/* Replacement for FFTW's tests/hook.c that uses the public API only.
 *
 * The original hook.c reaches into FFTW internals (fftw_the_planner,
 * fftw_mkprinter_file, fftw_plan_awake, fftw_ifree, ...) to install a planner
 * hook that re-verifies every sub-plan; that only does anything with
 * `-o paranoid` (check.pl --paranoid), which we never run. gpufftw exports
 * only the public FFTW API, so the bench used for drop-in and relink modes
 * links this file instead: the hooks become no-ops.
 *
 * Compiled once per precision with FFTW's config.h on the include path;
 * BENCHFFT_SINGLE (set by config.h for --enable-single) picks the prefix.
 */
#include "config.h"

void install_hook(void) {}
void uninstall_hook(void) {}

/* fftw-bench.c declares `extern unsigned FFTW(random_estimate_seed)` (used
 * by `-o eseed=N` when FFTW was configured --enable-random-estimator). It is
 * an FFTW-internal variable, so define our own copy here; a no-op for us. */
#if defined(BENCHFFT_SINGLE)
unsigned fftwf_random_estimate_seed = 0;
#else
unsigned fftw_random_estimate_seed = 0;
#endif
